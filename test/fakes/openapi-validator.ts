/**
 * Checks a request to a fake against the vendor's OpenAPI 3 document (test/fakes/specs/): the operation (method and
 * path template), query parameters (known, typed, required, enum), the JSON body (field names where the schema
 * says `additionalProperties: false`, types, `required`, enums, array items, `maxItems`), and a fake's JSON answer
 * against the operation's response schema. A request the document does not allow is a SpecViolation quoting the
 * document (recorded: the test file fails, spec-violations.ts). Multipart bodies are not checked (the fake reads
 * their parts itself).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SpecViolation } from './discovery-validator.ts';
import { recordViolation } from './spec-violations.ts';

interface Schema {
  $ref?: string;
  type?: string;
  format?: string;
  description?: string;
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  maxItems?: number;
  readOnly?: boolean;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Schema;
}

interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema?: Schema }> };
  responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}

interface OpenApiDoc {
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

export interface MatchedOperation {
  operation: Operation;
  template: string;
}

const specsDir = fileURLToPath(new URL('./specs/', import.meta.url));
const said = (text: string | undefined) => (text ? ` The document says: "${text.trim()}"` : '');

export class OpenApiValidator {
  readonly doc: OpenApiDoc;
  private readonly ops: { method: string; template: string; re: RegExp; op: Operation }[] = [];

  /**
   * @param opts.strict an object, in a request or in the fake's answer, may carry only the fields its schema names,
   *   even where the document leaves `additionalProperties` open, and an answer must carry its `required` fields too:
   *   for a vendor that ignores unknown fields, where a misspelt field would pass silently (stricter than the
   *   document: specs/README.md says where it is used).
   */
  constructor(
    file: string,
    private readonly opts: { strict?: boolean } = {},
  ) {
    this.doc = JSON.parse(readFileSync(`${specsDir}${file}`, 'utf8')) as OpenApiDoc;
    for (const [template, item] of Object.entries(this.doc.paths)) {
      const re = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '([^/]+)')}$`);
      for (const [method, op] of Object.entries(item)) this.ops.push({ method: method.toUpperCase(), template, re, op });
    }
  }

  private fail(message: string): never {
    const v = new SpecViolation(`${this.doc.info.title} (OpenAPI ${this.doc.info.version}): ${message}`);
    recordViolation(v.message);
    throw v;
  }

  /** Checks a request; `body` is the parsed JSON body, or undefined when there is none or it is multipart. */
  request(method: string, path: string, query: URLSearchParams, body: unknown, contentType = ''): MatchedOperation {
    // A literal path (`/comment/list`) wins over a template that also matches it (`/comment/{id}`).
    const candidates = this.ops.filter((o) => o.re.test(path)).sort((a, b) => (a.template.match(/\{/g)?.length ?? 0) - (b.template.match(/\{/g)?.length ?? 0));
    const hit = candidates.find((o) => o.method === method.toUpperCase());
    if (!hit) {
      if (candidates.length) this.fail(`${method} ${path}: ${candidates[0]!.template} takes ${candidates.map((c) => c.method).join(', ')}, not ${method}`);
      this.fail(`${method} ${path}: no operation of the stored excerpt has this path`);
    }
    const { op } = hit;
    const where = `${op.operationId} (${method} ${hit.template})`;
    const params = op.parameters ?? [];
    for (const name of new Set(query.keys())) {
      const p = params.find((x) => x.in === 'query' && x.name === name);
      if (!p) this.fail(`${where}: query parameter "${name}" is not a parameter of this operation (it takes: ${params.filter((x) => x.in === 'query').map((x) => x.name).join(', ') || 'none'})`);
      for (const v of query.getAll(name)) this.scalar(`${where}: query parameter ${name}`, p.schema ?? {}, v, true, p.description);
    }
    for (const p of params) if (p.in === 'query' && p.required && !query.has(p.name)) this.fail(`${where}: required query parameter "${p.name}" is missing.${said(p.description)}`);
    const json = op.requestBody?.content['application/json']?.schema;
    if (contentType.startsWith('multipart/')) {
      if (!op.requestBody?.content['multipart/form-data']) this.fail(`${where}: the operation takes no multipart body`);
    } else if (json) {
      if (body === undefined) {
        if (op.requestBody?.required) this.fail(`${where}: the request body is required`);
      } else this.value(`${where} body`, json, body, true);
    } else if (body !== undefined && !op.requestBody) {
      this.fail(`${where}: the operation takes no request body`);
    }
    return { operation: op, template: hit.template };
  }

  /** Checks a fake's JSON answer against the operation's schema for that status. */
  response(matched: MatchedOperation, status: number, body: unknown): void {
    const r = matched.operation.responses[String(status)];
    if (!r) this.fail(`${matched.operation.operationId}: the document lists no ${status} answer (it lists ${Object.keys(matched.operation.responses).join(', ')})`);
    const schema = r.content?.['application/json']?.schema;
    if (schema && body !== undefined) this.value(`${matched.operation.operationId} answer ${status}`, schema, body, false);
  }

  private resolve(s: Schema): Schema {
    if (!s.$ref) return s;
    const target = this.doc.components.schemas[s.$ref.replace('#/components/schemas/', '')];
    if (!target) this.fail(`schema ${s.$ref} is not in the stored excerpt`);
    return { ...target, description: s.description ?? target.description };
  }

  private scalar(where: string, s: Schema, v: unknown, fromQuery: boolean, description = s.description): void {
    if (s.enum && !s.enum.includes(v)) this.fail(`${where}: ${JSON.stringify(v)} is not one of ${s.enum.join(', ')}.${said(description)}`);
    const t = s.type;
    const isInt = (x: unknown) => (fromQuery ? /^-?\d+$/.test(String(x)) : Number.isInteger(x));
    if (t === 'integer' && !isInt(v)) this.fail(`${where}: ${JSON.stringify(v)} is not an integer.${said(description)}`);
    if (t === 'number' && (fromQuery ? Number.isNaN(Number(v)) : typeof v !== 'number')) this.fail(`${where}: ${JSON.stringify(v)} is not a number.${said(description)}`);
    if (t === 'boolean' && (fromQuery ? !['true', 'false'].includes(String(v)) : typeof v !== 'boolean')) this.fail(`${where}: ${JSON.stringify(v)} is not a boolean.${said(description)}`);
    if (t === 'string' && !fromQuery && typeof v !== 'string') this.fail(`${where}: ${JSON.stringify(v)} is not a string.${said(description)}`);
  }

  private value(where: string, schema: Schema, v: unknown, isRequest: boolean): void {
    const s = this.resolve(schema);
    if (v === null || v === undefined) return;
    if (s.allOf) return s.allOf.forEach((x) => this.value(where, x, v, isRequest));
    if (s.oneOf || s.anyOf) return; // alternatives: accepted as the vendor's own shapes
    if (s.type === 'array') {
      if (!Array.isArray(v)) this.fail(`${where}: ${JSON.stringify(v).slice(0, 120)} is not an array.${said(s.description)}`);
      if (s.maxItems !== undefined && v.length > s.maxItems) this.fail(`${where}: ${v.length} items, at most ${s.maxItems}.${said(s.description)}`);
      v.forEach((x, i) => this.value(`${where}[${i}]`, s.items ?? {}, x, isRequest));
      return;
    }
    if (s.type === 'object' || s.properties) {
      if (typeof v !== 'object' || Array.isArray(v)) this.fail(`${where}: ${JSON.stringify(v).slice(0, 120)} is not an object.${said(s.description)}`);
      const obj = v as Record<string, unknown>;
      for (const [k, child] of Object.entries(obj)) {
        const prop = s.properties?.[k];
        if (prop) this.value(`${where}.${k}`, prop, child, isRequest);
        else if (s.additionalProperties === false || (this.opts.strict && s.additionalProperties === undefined && s.properties)) this.fail(`${where}: field "${k}" is not a field of this object (its fields: ${Object.keys(s.properties ?? {}).join(', ')})`);
        else if (typeof s.additionalProperties === 'object') this.value(`${where}["${k}"]`, s.additionalProperties, child, isRequest);
      }
      if (isRequest || this.opts.strict) for (const k of s.required ?? []) if (!(k in obj)) this.fail(`${where}: required field "${k}" is missing.${said(s.properties?.[k]?.description)}`);
      return;
    }
    this.scalar(where, s, v, false);
  }
}

const cache = new Map<string, OpenApiValidator>();
export function openApi(file: string, opts: { strict?: boolean } = {}): OpenApiValidator {
  const key = `${file}${opts.strict ? ' strict' : ''}`;
  let v = cache.get(key);
  if (!v) cache.set(key, (v = new OpenApiValidator(file, opts)));
  return v;
}
