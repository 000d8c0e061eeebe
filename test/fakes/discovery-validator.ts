/**
 * Checks a request to a fake of a Google API against that API's own discovery document (test/fakes/specs/), and
 * the fake's answer against the method's response schema: method and path, query parameters (known, typed,
 * required, enum, minimum/maximum, the path parameters' `pattern`), body field names and types, fields the
 * document calls "Required.", enum values. A request the document does not allow is a `SpecViolation` quoting
 * the document's own words; it is also recorded (see spec-violations.ts), so the test file fails even when the
 * product swallows the fake's 400.
 *
 * Where the document is silent the validator follows what Google's clients send and Google accepts, each marked
 * here and in test/fakes/specs/README.md: the `$alt` system parameter of the gax REST fallback, enums sent as
 * numbers when `$alt` asks `enum-encoding=int` (proto3 JSON), 64-bit integers written as JSON numbers, and
 * `google.protobuf.*` wrapper/struct fields (the discovery `any` type) taking any JSON.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { recordViolation } from './spec-violations.ts';

type Json = Record<string, unknown>;

interface DiscoveryParam {
  type?: string;
  format?: string;
  location?: string;
  required?: boolean;
  repeated?: boolean;
  pattern?: string;
  enum?: string[];
  minimum?: string;
  maximum?: string;
  description?: string;
}

export interface DiscoverySchema {
  id?: string;
  type?: string;
  format?: string;
  $ref?: string;
  description?: string;
  properties?: Record<string, DiscoverySchema>;
  additionalProperties?: DiscoverySchema;
  items?: DiscoverySchema;
  enum?: string[];
  readOnly?: boolean;
}

interface DiscoveryMethod {
  id: string;
  httpMethod: string;
  path: string;
  flatPath?: string;
  description?: string;
  parameters?: Record<string, DiscoveryParam>;
  request?: { $ref: string };
  response?: { $ref: string };
}

interface DiscoveryDoc {
  name: string;
  version: string;
  revision: string;
  servicePath: string;
  parameters: Record<string, DiscoveryParam>;
  resources: Record<string, { methods?: Record<string, DiscoveryMethod>; resources?: DiscoveryDoc['resources'] }>;
  schemas: Record<string, DiscoverySchema>;
}

export class SpecViolation extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SpecViolation';
  }
}

/** What a request resolved to: its method, path parameters, and whether enums travel as numbers. */
export interface Matched {
  method: DiscoveryMethod;
  params: Record<string, string>;
  intEnums: boolean;
}

/** System parameters Google's clients send that the discovery document does not list (documented elsewhere). */
const SYSTEM_PARAMS = new Set(['$alt']);

const specsDir = fileURLToPath(new URL('./specs/', import.meta.url));

function allMethods(resources: DiscoveryDoc['resources'] | undefined, out: DiscoveryMethod[] = []): DiscoveryMethod[] {
  for (const r of Object.values(resources ?? {})) {
    out.push(...Object.values(r.methods ?? {}));
    allMethods(r.resources, out);
  }
  return out;
}

/** `v1/{+name}:markClaimed` → a regex over the decoded path, capturing each parameter. */
function pathRegex(servicePath: string, template: string): { re: RegExp; names: string[] } {
  const names: string[] = [];
  const body = `/${servicePath}${template}`
    .split(/(\{\+?[^}]+\})/)
    .map((part) => {
      const m = /^\{(\+?)([^}]+)\}$/.exec(part);
      if (!m) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(m[2]!);
      return m[1] ? '(.+?)' : '([^/]+?)';
    })
    .join('');
  return { re: new RegExp(`^${body}$`), names };
}

const quote = (text: string | undefined) => (text ? ` The document says: "${text.trim()}"` : '');

export class DiscoveryValidator {
  readonly doc: DiscoveryDoc;
  private readonly methods: { m: DiscoveryMethod; re: RegExp; names: string[] }[];

  constructor(readonly file: string) {
    this.doc = JSON.parse(readFileSync(`${specsDir}${file}`, 'utf8')) as DiscoveryDoc;
    this.methods = allMethods(this.doc.resources).map((m) => ({ m, ...pathRegex(this.doc.servicePath, m.path) }));
  }

  private get label() {
    return `${this.doc.name} ${this.doc.version} (discovery revision ${this.doc.revision})`;
  }

  private fail(message: string): never {
    const v = new SpecViolation(`${this.label}: ${message}`);
    recordViolation(v.message);
    throw v;
  }

  /** The method's parameter description, in the document's words (for a fake's own semantic refusals). */
  describe(methodId: string, param: string): string {
    const m = this.methods.find((x) => x.m.id === methodId)?.m;
    return m?.parameters?.[param]?.description ?? '';
  }

  /** A refusal the fake makes from its own state, worded with the document's description of the parameter. */
  refuse(methodId: string, param: string, value: string): never {
    this.fail(`${methodId}: ${param}=${JSON.stringify(value)} is not what the parameter takes.${quote(this.describe(methodId, param))}`);
  }

  /** Whether some method of the document has this path (which document a multi-API fake checks against). */
  owns(path: string): boolean {
    return this.methods.some((x) => x.re.test(path) && this.fits(x, path));
  }

  /** The path parameters fit the patterns the document gives them. */
  private fits(x: { m: DiscoveryMethod; re: RegExp; names: string[] }, path: string): boolean {
    const values = x.re.exec(path);
    return !!values && x.names.every((n, i) => {
      const pattern = x.m.parameters?.[n]?.pattern;
      return !pattern || new RegExp(pattern).test(values[i + 1]!);
    });
  }

  /** A schema property's description, in the document's words. */
  property(schema: string, name: string): string {
    return this.doc.schemas[schema]?.properties?.[name]?.description ?? '';
  }

  /** A refusal the fake makes from its own state about a body field, worded with the document's description. */
  refuseField(schema: string, name: string, value: unknown): never {
    this.fail(`${schema}.${name}=${JSON.stringify(value)} is refused.${quote(this.property(schema, name))}`);
  }

  /** Checks a request; returns the method it is, or throws (and records) a SpecViolation. */
  request(httpMethod: string, path: string, query: URLSearchParams, body: unknown): Matched {
    const candidates = this.methods.filter((x) => x.re.test(path));
    const same = candidates.filter((x) => x.m.httpMethod === httpMethod.toUpperCase());
    // `v1/{+name}` matches a list path too: the method whose path parameters fit their patterns is the one meant.
    const hit = same.find((x) => this.fits(x, path)) ?? same[0];
    if (!hit) {
      if (candidates.length) this.fail(`${httpMethod} ${path}: the path is ${candidates.map((c) => `${c.m.httpMethod} ${c.m.id}`).join(', ')}, not ${httpMethod}`);
      this.fail(`${httpMethod} ${path}: no method of the document has this path`);
    }
    const { m, re, names } = hit;
    const values = re.exec(path)!.slice(1);
    const params: Record<string, string> = {};
    names.forEach((n, i) => (params[n] = values[i]!));
    const alt = query.get('$alt') ?? '';
    const intEnums = alt.includes('enum-encoding=int');

    for (const [name, value] of Object.entries(params)) {
      const p = m.parameters?.[name];
      if (p?.pattern && !new RegExp(p.pattern).test(value)) this.fail(`${m.id}: path parameter ${name}=${JSON.stringify(value)} does not match ${p.pattern}.${quote(p.description)}`);
    }
    for (const name of new Set(query.keys())) {
      if (SYSTEM_PARAMS.has(name)) continue;
      const p = m.parameters?.[name] ?? this.doc.parameters[name];
      if (!p || p.location !== 'query') this.fail(`${m.id}: query parameter "${name}" is not a parameter of this method (it takes: ${Object.entries(m.parameters ?? {}).filter(([, x]) => x.location === 'query').map(([k]) => k).join(', ') || 'none'})`);
      const all = query.getAll(name);
      if (all.length > 1 && !p.repeated) this.fail(`${m.id}: query parameter "${name}" is given ${all.length} times but is not repeated.${quote(p.description)}`);
      for (const v of all) this.scalar(`${m.id}: query parameter ${name}`, p, v, true, intEnums);
    }
    for (const [name, p] of Object.entries(m.parameters ?? {})) {
      if (p.required && p.location === 'query' && !query.has(name)) this.fail(`${m.id}: required query parameter "${name}" is missing.${quote(p.description)}`);
    }
    if (m.request) {
      if (body === null || body === undefined) this.fail(`${m.id}: the request needs a ${m.request.$ref} body`);
      this.value(`${m.id} request body`, { $ref: m.request.$ref }, body, intEnums, true);
    } else if (body !== null && body !== undefined && !(typeof body === 'object' && Object.keys(body).length === 0)) {
      this.fail(`${m.id}: the method takes no request body, got ${JSON.stringify(body).slice(0, 200)}`);
    }
    return { method: m, params, intEnums };
  }

  /** Checks a fake's 2xx answer against the method's response schema (a fake must answer in the document's shapes). */
  response(matched: Matched, body: unknown): void {
    if (matched.method.response) this.value(`${matched.method.id} response`, { $ref: matched.method.response.$ref }, body, matched.intEnums, false);
  }

  /** A schema check on its own: e.g. an operation's `response` field, typed by the fake. */
  schema(where: string, ref: string, value: unknown, intEnums = false): void {
    this.value(where, { $ref: ref }, value, intEnums, false);
  }

  private scalar(where: string, s: DiscoveryParam | DiscoverySchema, v: unknown, fromQuery: boolean, intEnums: boolean): void {
    const type = s.type;
    const fmt = s.format ?? '';
    if (s.enum) {
      if (intEnums && (typeof v === 'number' || (fromQuery && /^\d+$/.test(String(v))))) {
        if (Number(v) < 0 || !Number.isInteger(Number(v))) this.fail(`${where}: ${v} is no enum number`);
        return;
      }
      if (!s.enum.includes(String(v))) this.fail(`${where}: ${JSON.stringify(v)} is not one of ${s.enum.join(', ')}.${quote(s.description)}`);
      return;
    }
    if (type === 'string' && /^u?int64$/.test(fmt)) {
      // proto3 JSON writes 64-bit integers as strings and reads numbers too.
      if (!/^-?\d+$/.test(String(v)) || (typeof v !== 'string' && typeof v !== 'number')) this.fail(`${where}: ${JSON.stringify(v)} is not an integer (${fmt}).${quote(s.description)}`);
      return;
    }
    if (type === 'string') {
      if (!fromQuery && typeof v !== 'string') this.fail(`${where}: ${JSON.stringify(v)} is not a string.${quote(s.description)}`);
      return;
    }
    if (type === 'integer') {
      const n = Number(v);
      if ((!fromQuery && typeof v !== 'number' && !(typeof v === 'string' && /^-?\d+$/.test(v))) || !Number.isInteger(n) || (fromQuery && !/^-?\d+$/.test(String(v)))) {
        this.fail(`${where}: ${JSON.stringify(v)} is not an integer (${fmt || 'integer'}).${quote(s.description)}`);
      }
      const p = s as DiscoveryParam;
      if ((p.minimum !== undefined && n < Number(p.minimum)) || (p.maximum !== undefined && n > Number(p.maximum))) {
        this.fail(`${where}: ${n} is outside ${p.minimum ?? '-∞'}..${p.maximum ?? '∞'}.${quote(s.description)}`);
      }
      return;
    }
    if (type === 'number') {
      if (Number.isNaN(Number(v)) || (!fromQuery && typeof v !== 'number' && typeof v !== 'string')) this.fail(`${where}: ${JSON.stringify(v)} is not a number.${quote(s.description)}`);
      return;
    }
    if (type === 'boolean') {
      if (fromQuery ? !['true', 'false'].includes(String(v)) : typeof v !== 'boolean') this.fail(`${where}: ${JSON.stringify(v)} is not a boolean.${quote(s.description)}`);
    }
  }

  private value(where: string, s: DiscoverySchema, v: unknown, intEnums: boolean, isRequest: boolean): void {
    if (s.$ref) {
      const target = this.doc.schemas[s.$ref];
      if (!target) this.fail(`${where}: schema ${s.$ref} is not in the stored excerpt`);
      return this.value(where, { ...target, description: s.description ?? target.description }, v, intEnums, isRequest);
    }
    if (v === null || v === undefined) return;
    if (s.type === 'any') return;
    if (s.type === 'array') {
      if (!Array.isArray(v)) this.fail(`${where}: ${JSON.stringify(v).slice(0, 120)} is not an array.${quote(s.description)}`);
      v.forEach((item, i) => this.value(`${where}[${i}]`, s.items ?? {}, item, intEnums, isRequest));
      return;
    }
    if (s.type === 'object') {
      if (typeof v !== 'object' || Array.isArray(v)) this.fail(`${where}: ${JSON.stringify(v).slice(0, 120)} is not an object.${quote(s.description)}`);
      const obj = v as Json;
      if (s.properties) {
        for (const [k, child] of Object.entries(obj)) {
          // Every response may carry a type marker in `@type` (an Any); it is checked by the fake that sets it.
          if (k === '@type') continue;
          const prop = s.properties[k];
          if (!prop) this.fail(`${where}: field "${k}" is not a field of ${s.id ?? 'this object'} (its fields: ${Object.keys(s.properties).join(', ')})`);
          this.value(`${where}.${k}`, prop, child, intEnums, isRequest);
        }
        if (isRequest) {
          for (const [k, prop] of Object.entries(s.properties)) {
            const desc = prop.description ?? (prop.$ref ? '' : '');
            if (/^Required\b/.test(desc.trim()) && !(k in obj)) this.fail(`${where}: required field "${k}" is missing.${quote(desc)}`);
          }
        }
      } else if (s.additionalProperties) {
        for (const [k, child] of Object.entries(obj)) this.value(`${where}["${k}"]`, s.additionalProperties, child, intEnums, isRequest);
      }
      return;
    }
    this.scalar(where, s, v, false, intEnums);
  }
}

const cache = new Map<string, DiscoveryValidator>();
/** One validator per stored document (they are read once per test process). */
export function discovery(file: string): DiscoveryValidator {
  let v = cache.get(file);
  if (!v) cache.set(file, (v = new DiscoveryValidator(file)));
  return v;
}
