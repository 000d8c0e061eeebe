/**
 * Transcribes operations, and the schemas they reach, from a go-swagger generated Go client back into an OpenAPI 3
 * excerpt (grafana-http-api.json, from Grafana Labs' Apache-2.0 grafana-openapi-client-go; README.md says why not
 * from Grafana's own document). Mechanical: method, path and parameters from `client/<tag>/*.go`, Go types to schema
 * types, `// Enum:` to `enum`, `// Required: true` to `required`, descriptions from the comments; go-swagger's
 * humanised field names (no description in the document) are dropped. Run when refreshing, on a clone (git dir):
 *   npx tsx test/fakes/specs/excerpt-go-swagger.ts <client.git> <out.json> operationId...
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

const GIT = process.argv[2]!;
const git = (...a: string[]) => execFileSync('git', ['-C', GIT, ...a], { encoding: 'utf8', maxBuffer: 1e9 });
const show = (p: string) => git('show', `HEAD:${p}`);
const grepFiles = (pat: string, dir: string) => git('grep', '-l', '-F', pat, 'HEAD', '--', dir).trim().split('\n').filter(Boolean).map((l) => l.replace(/^HEAD:/, ''));

type S = Record<string, unknown>;
const modelIndex = new Map<string, string>();
for (const line of git('grep', '-n', '// swagger:model ', 'HEAD', '--', 'models').split('\n')) {
  const m = /^HEAD:(models\/[^:]+):\d+:\/\/ swagger:model (\S+)/.exec(line);
  if (m) modelIndex.set(m[2]!, m[1]!);
}
const schemas: Record<string, S> = {};
const queue: string[] = [];
const ref = (name: string): S => {
  if (!schemas[name] && !queue.includes(name)) queue.push(name);
  return { $ref: `#/components/schemas/${name}` };
};

const flat = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');
const META = /^(Required|Enum|Format|Example|Minimum|Maximum|Read Only|Max Length|Min Length|Pattern|Max Items|Min Items|Default|Exclusive Maximum|Exclusive Minimum|Unique|Multiple Of): ?(.*)$/;

function parseComment(lines: string[], jsonName: string) {
  const meta: Record<string, string> = {};
  const desc: string[] = [];
  for (const l of lines) {
    const m = META.exec(l);
    if (m) meta[m[1]!] = m[2]!;
    else desc.push(l);
  }
  while (desc.length && desc[desc.length - 1] === '') desc.pop();
  while (desc.length && desc[0] === '') desc.shift();
  let description = desc.join('\n');
  if (flat(description) === flat(jsonName)) description = '';
  return { meta, description };
}

function goType(t: string, local: string | null): S {
  t = t.trim().replace(/^\*/, '');
  if (t.startsWith('[]')) return { type: 'array', items: goType(t.slice(2), local) };
  let m = /^map\[string\](.+)$/.exec(t);
  if (m) return { type: 'object', additionalProperties: goType(m[1]!, local) };
  switch (t) {
    case 'interface{}': case 'any': return {};
    case 'string': return { type: 'string' };
    case 'bool': return { type: 'boolean' };
    case 'int64': return { type: 'integer', format: 'int64' };
    case 'int32': return { type: 'integer', format: 'int32' };
    case 'int': case 'uint64': case 'uint32': return { type: 'integer' };
    case 'uint8': return { type: 'integer', format: 'uint8' };
    case 'float64': return { type: 'number', format: 'double' };
    case 'float32': return { type: 'number', format: 'float' };
    case 'strfmt.DateTime': return { type: 'string', format: 'date-time' };
    case 'strfmt.Date': return { type: 'string', format: 'date' };
    case 'strfmt.UUID': return { type: 'string', format: 'uuid' };
    case 'strfmt.Duration': return { type: 'string', format: 'duration' };
    case 'strfmt.Base64': return { type: 'string', format: 'byte' };
  }
  m = /^models\.(\w+)$/.exec(t);
  if (m) return named(m[1]!);
  if (/^\w+$/.test(t)) {
    if (local && new RegExp(`^type ${t} struct \\{`, 'm').test(local)) return structSchema(local, t, local);
    return named(t);
  }
  throw new Error(`unknown Go type ${t}`);
}

/** A model go-swagger made from an inline schema (no swagger:model line) stays inline, as in the document. */
function named(t: string): S {
  if (modelIndex.has(t)) return ref(t);
  const file = git('grep', '-l', `^type ${t} `, 'HEAD', '--', 'models').trim().split('\n')[0]!.replace(/^HEAD:/, '');
  const src = show(file);
  const decl = new RegExp(`^type ${t} (.+)$`, 'm').exec(src)![1]!;
  return decl === 'struct {' ? structSchema(src, t, null) : goType(decl, null);
}

function block(src: string, name: string): string[] {
  const lines = src.split('\n');
  const start = lines.findIndex((l) => l.startsWith(`type ${name} struct {`));
  if (start < 0) throw new Error(`no struct ${name}`);
  const end = lines.findIndex((l, i) => i > start && l === '}');
  return lines.slice(start + 1, end);
}

function structSchema(src: string, name: string, local: string | null): S {
  const properties: Record<string, S> = {};
  const required: string[] = [];
  const allOf: S[] = [];
  let comment: string[] = [];
  for (const raw of block(src, name)) {
    const l = raw.trim();
    if (l.startsWith('//')) { comment.push(l.replace(/^\/\/ ?/, '')); continue; }
    if (!l) { comment = []; continue; }
    const f = /^(\w+)\s+(\S+)\s+`json:"([^",]*)[^`]*`/.exec(l);
    if (!f) {
      const e = /^(\*?[\w.]+)$/.exec(l);
      if (e) { allOf.push(goType(e[1]!, local)); comment = []; continue; }
      throw new Error(`${name}: cannot read field line ${l}`);
    }
    const [, , type, json] = f;
    if (json === '-') { comment = []; continue; }
    const { meta, description } = parseComment(comment, json!);
    const s: S = { ...goType(type!, local) };
    if (meta.Format && !s.$ref) s.format = meta.Format;
    if (meta.Enum) s.enum = JSON.parse(meta.Enum);
    if (description) s.description = description;
    if (s.$ref && Object.keys(s).length > 1) {
      const { $ref, ...rest } = s;
      properties[json!] = { ...rest, allOf: [{ $ref }] };
    } else properties[json!] = s;
    if (meta.Required === 'true') required.push(json!);
    comment = [];
  }
  const out: S = { type: 'object', properties };
  if (required.length) out.required = required;
  if (allOf.length) return { allOf: [...allOf, out] };
  return out;
}

function modelSchema(name: string): S {
  const file = modelIndex.get(name);
  if (!file) throw new Error(`no model ${name}`);
  const src = show(file);
  const lines = src.split('\n');
  const at = lines.findIndex((l) => l === `// swagger:model ${name}`);
  const head: string[] = [];
  for (let i = at - 1; i >= 0 && lines[i]!.startsWith('//'); i--) head.unshift(lines[i]!.replace(/^\/\/ ?/, ''));
  if (head[0]?.startsWith(`${name} `) || head[0] === name) head[0] = head[0]!.slice(name.length).trim();
  const { meta, description } = parseComment(head, name);
  const decl = lines[at + 1]!;
  let s: S;
  if (decl.startsWith(`type ${name} struct {`)) s = structSchema(src, name, null);
  else {
    const m = new RegExp(`^type ${name} (.+)$`).exec(decl);
    if (!m) throw new Error(`cannot read model ${name}: ${decl}`);
    s = goType(m[1]!, null);
    if (meta.Enum) s.enum = JSON.parse(meta.Enum);
    if (meta.Format) s.format = meta.Format;
  }
  if (description) s = { description, ...s };
  return s;
}

function operation(id: string) {
  const file = grepFiles(`ID:                 "${id}"`, 'client')[0];
  if (!file) throw new Error(`no operation ${id}`);
  const dir = file.replace(/\/[^/]+$/, '');
  const src = show(file);
  const opAt = src.indexOf(`ID:                 "${id}"`);
  const method = /Method:\s+"(\w+)"/.exec(src.slice(opAt))![1]!.toLowerCase();
  const path = /PathPattern:\s+"([^"]+)"/.exec(src.slice(opAt))![1]!;
  const goName = /func \(a \*Client\) (\w+)WithParams/.exec(src.slice(0, opAt).slice(src.slice(0, opAt).lastIndexOf('func (a *Client) ')))![1]!;
  const docAt = src.indexOf(`\nfunc (a *Client) ${goName}(`);
  const docEnd = src.lastIndexOf('*/', docAt);
  const docStart = src.lastIndexOf('/*\n', docEnd);
  const docLines = src.slice(docStart + 3, docEnd).trim().split('\n');
  const summaryLine = docLines.shift()!.replace(new RegExp(`^${goName} `), '');
  const description = docLines.join('\n').trim();
  const op: S = { operationId: id, summary: summaryLine };
  if (description) op.description = description;

  const pfile = grepFiles(`type ${goName}Params struct`, dir)[0]!;
  const psrc = show(pfile);
  const fields = block(psrc, `${goName}Params`);
  let inComment = false;
  const code = fields.map((l) => {
    const t = l.trim();
    if (t.startsWith('/*')) inComment = !t.endsWith('*/');
    else if (inComment) { if (t.endsWith('*/')) inComment = false; }
    else if (!t.startsWith('//')) return t;
    return '';
  });
  const fieldType = (name: string) => {
    const line = code.find((l) => new RegExp(`^\\w+\\s`).test(l) && flat(l.split(/\s+/)[0]!) === flat(name));
    if (!line) throw new Error(`${id}: no field for ${name}`);
    return { goField: line.split(/\s+/)[0]!, type: line.split(/\s+/)[1]! };
  };
  const fieldDoc = (goField: string) => {
    const idx = fields.findIndex((l) => new RegExp(`^\\s*${goField}\\s`).test(l));
    const out: string[] = [];
    for (let i = idx - 1; i >= 0 && fields[i]!.trim() !== ''; i--) out.unshift(fields[i]!.trim());
    const text = out.join('\n').replace(/^\/\*|\*\/$/g, '').split('\n').map((l) => l.replace(/^\/\/ ?/, '').trim());
    const rest = text.filter((l) => l !== `${goField}.` && !META.test(l));
    return rest.join('\n').trim();
  };
  const parameters: S[] = [];
  for (const m of psrc.matchAll(/r\.Set(Path|Query|Header)Param\("([^"]+)"/g)) {
    const where = m[1]!.toLowerCase();
    const name = m[2]!;
    if (parameters.some((p) => p.name === name && p.in === where)) continue;
    const { goField, type } = fieldType(name);
    const p: S = { name, in: where };
    const d = fieldDoc(goField);
    if (d) p.description = d;
    if (where === 'path' || !type.startsWith('*')) p.required = true;
    p.schema = goType(type.replace(/^\*/, ''), null);
    parameters.push(p);
  }
  if (parameters.length) op.parameters = parameters;
  if (/r\.SetBodyParam\(o\.Body\)/.test(psrc)) {
    const { type } = fieldType('Body');
    op.requestBody = { required: true, content: { 'application/json': { schema: goType(type, null) } } };
  }

  const rfile = grepFiles(`type ${goName}Reader struct`, dir)[0]!;
  const rsrc = show(rfile);
  const responses: Record<string, S> = {};
  for (const m of rsrc.matchAll(/case (\d+):\s+result := New(\w+)\(\)/g)) {
    const [, code, rtype] = m;
    const body = block(rsrc, rtype!);
    const payload = body.map((l) => l.trim()).find((l) => l.startsWith('Payload '));
    const descM = new RegExp(`${rtype} describes a response with status code \\d+, with default header values\\.\\n\\n([^]*?)\\*/`).exec(rsrc);
    const r: S = { description: descM ? descM[1]!.trim() : '' };
    if (payload) r.content = { 'application/json': { schema: goType(payload.slice('Payload '.length), rsrc) } };
    responses[code!] = r;
  }
  op.responses = responses;
  return { method, path, op };
}

const ids = process.argv.slice(4);
const paths: Record<string, Record<string, S>> = {};
for (const id of ids) {
  const { method, path, op } = operation(id);
  (paths[path] ??= {})[method] = op;
}
while (queue.length) {
  const n = queue.shift()!;
  if (!schemas[n]) schemas[n] = modelSchema(n);
}
const sorted = Object.fromEntries(Object.keys(schemas).sort().map((k) => [k, schemas[k]]));
const head = git('log', '-1', '--format=%H %cs');
writeFileSync(process.argv[3]!, `${JSON.stringify({
  openapi: '3.0.3',
  info: {
    title: 'Grafana HTTP API.',
    version: '0.0.1',
    'x-transcribed-from': `grafana-openapi-client-go ${head.trim().replace(/^(\w{8})\w+/, '$1')} (Apache-2.0), generated from Grafana v13.0.0 public/api-merged.json (e9de482b)`,
  },
  servers: [{ url: '/api' }],
  paths,
  components: { schemas: sorted },
}, null, 2)}\n`);
