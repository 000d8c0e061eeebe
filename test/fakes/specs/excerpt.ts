/**
 * Cuts a Google discovery document down to the methods the product calls and the schemas they reach, keeping
 * each method and schema exactly as Google wrote it (and the document's top-level fields: revision, rootUrl,
 * servicePath, the standard parameters). Run when refreshing a document:
 *   npx tsx test/fakes/specs/excerpt.ts <full.json> <out.json> <method id>...
 */
import { readFileSync, writeFileSync } from 'node:fs';

type Json = Record<string, unknown>;
const [full, out, ...ids] = process.argv.slice(2);
const doc = JSON.parse(readFileSync(full!, 'utf8')) as Json;
const schemas = (doc.schemas ?? {}) as Record<string, Json>;
const wanted = new Set(ids);
const found = new Set<string>();
const refs = new Set<string>();

function collectRefs(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(collectRefs);
  if (!node || typeof node !== 'object') return;
  for (const [k, v] of Object.entries(node)) {
    if (k === '$ref' && typeof v === 'string' && !refs.has(v)) {
      refs.add(v);
      collectRefs(schemas[v]);
    } else collectRefs(v);
  }
}

function cut(resources: Record<string, Json>): Record<string, Json> | null {
  const kept: Record<string, Json> = {};
  for (const [name, r] of Object.entries(resources)) {
    const methods = Object.fromEntries(Object.entries((r.methods ?? {}) as Record<string, Json>).filter(([, m]) => wanted.has(String(m.id))));
    for (const m of Object.values(methods)) {
      found.add(String(m.id));
      collectRefs(m);
    }
    const sub = r.resources ? cut(r.resources as Record<string, Json>) : null;
    if (Object.keys(methods).length || sub) kept[name] = { ...(Object.keys(methods).length ? { methods } : {}), ...(sub ? { resources: sub } : {}) };
  }
  return Object.keys(kept).length ? kept : null;
}

const resources = cut((doc.resources ?? {}) as Record<string, Json>);
const missing = [...wanted].filter((id) => !found.has(id));
if (missing.length) throw new Error(`not in the document: ${missing.join(', ')}`);
collectRefs(doc.parameters);
const { resources: _r, schemas: _s, ...top } = doc;
const kept = Object.fromEntries([...refs].sort().map((name) => [name, schemas[name]]));
writeFileSync(out!, `${JSON.stringify({ ...top, resources, schemas: kept }, null, 2)}\n`);
