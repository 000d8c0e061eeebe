/**
 * Cuts an OpenAPI 3 document down to the operations the product calls and the component schemas they reach,
 * each kept exactly as the vendor wrote it (plus `openapi`, `info`, `servers`). Run when refreshing a document:
 *   npx tsx test/fakes/specs/excerpt-openapi.ts <full.json> <out.json> "METHOD /path/{template}"...
 */
import { readFileSync, writeFileSync } from 'node:fs';

type Json = Record<string, unknown>;
const [full, out, ...ops] = process.argv.slice(2);
const doc = JSON.parse(readFileSync(full!, 'utf8')) as Json & { paths: Record<string, Record<string, Json>>; components: { schemas: Record<string, Json> } };
const refs = new Set<string>();

function collect(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(collect);
  if (!node || typeof node !== 'object') return;
  for (const [k, v] of Object.entries(node)) {
    if (k === '$ref' && typeof v === 'string' && v.startsWith('#/components/schemas/')) {
      const name = v.slice('#/components/schemas/'.length);
      if (!refs.has(name)) {
        refs.add(name);
        collect(doc.components.schemas[name]);
      }
    } else collect(v);
  }
}

const paths: Record<string, Record<string, Json>> = {};
for (const op of ops) {
  const [method, path] = op.split(' ') as [string, string];
  const item = doc.paths[path]?.[method.toLowerCase()];
  if (!item) throw new Error(`not in the document: ${op}`);
  (paths[path] ??= {})[method.toLowerCase()] = item;
  collect(item);
}
const schemas = Object.fromEntries([...refs].sort().map((n) => [n, doc.components.schemas[n]]));
writeFileSync(out!, `${JSON.stringify({ openapi: doc.openapi, info: doc.info, servers: doc.servers, paths, components: { schemas } }, null, 2)}\n`);
