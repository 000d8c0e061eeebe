/**
 * Reads the api's own OpenAPI document and turns each operation into requests: a minimal well-formed
 * one, and variants where exactly one input is replaced by something hostile. Routes added later are
 * fuzzed without a new test.
 */
import type { FastifyInstance } from 'fastify';

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  format?: string;
  minimum?: number;
  minLength?: number;
  pattern?: string;
}

interface Parameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  required?: boolean;
  schema: JsonSchema;
}

export interface Operation {
  method: string;
  path: string;
  parameters: Parameter[];
  body: JsonSchema | null;
}

export async function operations(app: FastifyInstance): Promise<Operation[]> {
  const res = await app.inject({ method: 'GET', url: '/docs/json' });
  if (res.statusCode !== 200) throw new Error(`OpenAPI document: ${res.statusCode}`);
  const doc = res.json() as { paths: Record<string, Record<string, { parameters?: Parameter[]; requestBody?: { content: Record<string, { schema: JsonSchema }> } }>> };
  const out: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      out.push({ method: method.toUpperCase(), path, parameters: op.parameters ?? [], body: op.requestBody?.content['application/json']?.schema ?? null });
    }
  }
  return out;
}

/** Values that satisfy a path parameter's pattern, so the fuzzed input is the only thing wrong. */
const PATH_VALUES: Record<string, string> = {
  customer: 'acme-corp',
  customer_id: 'acme-corp',
  id: 'acme-corp',
  list: 'users',
  billing_account_id: '01A2B3-C4D5E6-F7A8B9',
  date: '2026-01-15',
  minimum_anomaly_threshold: '20',
  minimum_value_toggled_anomaly: '10',
  user: 'victor@acme.example',
  key: '00000000-0000-4000-8000-0000000b0b00',
  attachment_id: '00000000-0000-4000-8000-0000000a0a00',
  role: 'customer',
  state: 'Open',
  generated_name: 'probe.txt',
  token: 'probe-token',
};

/** A minimal value the schema accepts (best effort: the point is to get past validation to the handler). */
export function example(schema: JsonSchema | undefined, name = ''): unknown {
  if (!schema) return 'x';
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const choice = schema.anyOf ?? schema.oneOf;
  if (choice) return example(choice.find((s) => s.type !== 'null') ?? choice[0], name);
  const type = Array.isArray(schema.type) ? schema.type.find((x) => x !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const k of schema.required ?? []) out[k] = example(schema.properties?.[k], k);
      return out;
    }
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => example(schema.items, name));
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    case 'string':
      if (schema.format === 'email' || /mail|user/.test(name)) return 'probe@acme.example';
      if (schema.format === 'date' || /date/.test(name)) return '2026-01-15';
      return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
    default:
      return {};
  }
}

export interface Variant {
  label: string;
  url: string;
  /** Raw JSON text: some hostile numbers (1e309) cannot be produced by JSON.stringify. */
  payload?: string;
}

/** Raw, already percent-encoded replacements for a path segment or query value. */
const URL_VALUES: [string, string][] = [
  ['NUL byte', 'a%00b'],
  ['3,000 characters', 'x'.repeat(3000)],
  ['control character', 'a%01b'],
  ['lone surrogate (CESU-8)', '%ED%A0%80'],
  ['invalid UTF-8', '%FF%FE'],
];
const QUERY_NUMBERS: [string, string][] = [
  ['huge integer', '99999999999999999999'],
  ['1e309', '1e309'],
  ['huge negative', '-99999999999999999999'],
];
/** JSON texts spliced in for one body value. */
const BODY_STRINGS: [string, string][] = [
  ['NUL byte', '"a\\u0000b"'],
  ['lone surrogate', '"\\ud800"'],
  ['control character', '"a\\u0001b"'],
  ['3,000 characters', `"${'x'.repeat(3000)}"`],
];
const BODY_NUMBERS: [string, string][] = [
  ['1e309', '1e309'],
  ['huge integer', '99999999999999999999'],
  ['-1e309', '-1e309'],
];
export const DEEP_JSON = `${'['.repeat(5000)}${']'.repeat(5000)}`;
const BODY_ANY: [string, string][] = [['NUL key and lone surrogate', '{"k\\u0000":"\\udc00"}'], ['5,000-deep JSON', DEEP_JSON], ...BODY_STRINGS];
const DEEP_OBJECT = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;

const HOLE = '\u0000HOLE\u0000';

function urlOf(op: Operation, path: Record<string, string>, query: Record<string, string>): string {
  const p = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => path[name]);
  const q = Object.entries(query).map(([k, v]) => `${encodeURIComponent(k)}=${v}`).join('&');
  return q ? `${p}?${q}` : p;
}

/** Leaves of the body (by key path) whose value the fuzzer replaces, down to a few levels. */
function leaves(schema: JsonSchema | undefined, at: (string | number)[] = [], depth = 0): { at: (string | number)[]; schema: JsonSchema }[] {
  if (!schema || depth > 3) return [];
  const choice = schema.anyOf ?? schema.oneOf;
  if (choice) return leaves(choice.find((s) => s.type !== 'null') ?? choice[0], at, depth);
  if (schema.type === 'object' && schema.properties) {
    return Object.entries(schema.properties).flatMap(([k, s]) => leaves(s, [...at, k], depth + 1));
  }
  if (schema.type === 'array') return leaves(schema.items, [...at, 0], depth + 1);
  return [{ at, schema }];
}

function splice(base: unknown, at: (string | number)[], raw: string): string {
  if (at.length === 0) return raw;
  const copy = structuredClone(base ?? {}) as Record<string | number, unknown>;
  let node = copy;
  for (const k of at.slice(0, -1)) {
    if (node[k] === undefined || node[k] === null || typeof node[k] !== 'object') node[k] = typeof k === 'number' ? [] : {};
    node = node[k] as Record<string | number, unknown>;
  }
  node[at[at.length - 1]] = HOLE;
  return JSON.stringify(copy).replace(JSON.stringify(HOLE), raw);
}

/** The hostile variants of one operation: one input replaced at a time. */
export function variants(op: Operation): Variant[] {
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  const path = Object.fromEntries(pathParams.map((p) => [p.name, encodeURIComponent(PATH_VALUES[p.name] ?? String(example(p.schema, p.name)))]));
  const query = Object.fromEntries(queryParams.filter((p) => p.required).map((p) => [p.name, encodeURIComponent(String(example(p.schema, p.name)))]));
  const body = op.body ? example(op.body) : undefined;
  const basePayload = body === undefined ? undefined : JSON.stringify(body);
  const out: Variant[] = [];
  for (const p of pathParams) {
    for (const [label, value] of [...URL_VALUES, ['empty path id', ''] as [string, string]]) {
      out.push({ label: `path ${p.name}: ${label}`, url: urlOf(op, { ...path, [p.name]: value }, query), payload: basePayload });
    }
  }
  for (const p of queryParams) {
    for (const [label, value] of [...URL_VALUES, ...QUERY_NUMBERS]) {
      out.push({ label: `query ${p.name}: ${label}`, url: urlOf(op, path, { ...query, [p.name]: value }), payload: basePayload });
    }
  }
  const url = urlOf(op, path, query);
  if (op.body) {
    for (const leaf of leaves(op.body)) {
      const type = Array.isArray(leaf.schema.type) ? leaf.schema.type[0] : leaf.schema.type;
      const values = type === 'string' ? BODY_STRINGS : type === 'integer' || type === 'number' ? BODY_NUMBERS : type === undefined ? BODY_ANY : [];
      for (const [label, raw] of values) out.push({ label: `body ${leaf.at.join('.')}: ${label}`, url, payload: splice(body, leaf.at, raw) });
    }
  }
  if (op.body || op.method !== 'GET') {
    out.push({ label: 'body: 5,000-deep JSON array', url, payload: DEEP_JSON });
    out.push({ label: 'body: 5,000-deep JSON object', url, payload: DEEP_OBJECT });
  }
  return out;
}
