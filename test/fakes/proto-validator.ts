/**
 * Checks a request to a fake against a Google API's own proto definition (test/fakes/specs/<api>/*.proto), for an
 * API whose discovery document is not stored: the method's `google.api.http` rule (verb and path template, also the
 * additional bindings), query parameters (the request message's fields outside the path and the body), and the body
 * message's fields (known, typed, enums, required: a field the proto marks REQUIRED or whose comment starts with
 * "Required."). A request the proto does not allow is a SpecViolation quoting the field's comment (recorded: the
 * test file fails, spec-violations.ts). Answers are checked against the method's response message.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';
import { SpecViolation } from './discovery-validator.ts';
import { recordViolation } from './spec-violations.ts';

interface Binding {
  verb: string;
  re: RegExp;
  pathFields: string[];
  body: string | undefined;
}

export interface ProtoMatched {
  method: protobuf.Method;
  request: protobuf.Type;
}

/** Scalar proto types as proto3 JSON carries them. */
const SCALAR: Record<string, (v: unknown) => boolean> = {
  string: (v) => typeof v === 'string',
  bytes: (v) => typeof v === 'string',
  bool: (v) => typeof v === 'boolean',
  double: (v) => typeof v === 'number' || typeof v === 'string',
  float: (v) => typeof v === 'number' || typeof v === 'string',
  int32: (v) => Number.isInteger(Number(v)) && (typeof v === 'number' || typeof v === 'string'),
  uint32: (v) => Number.isInteger(Number(v)) && Number(v) >= 0,
  int64: (v) => /^-?\d+$/.test(String(v)) && (typeof v === 'number' || typeof v === 'string'),
  uint64: (v) => /^\d+$/.test(String(v)) && (typeof v === 'number' || typeof v === 'string'),
  // Well-known types: a Timestamp is an RFC 3339 string, an Int64Value wrapper its number as text.
  'google.protobuf.Timestamp': (v) => typeof v === 'string',
  'google.protobuf.Int64Value': (v) => /^-?\d+$/.test(String(v)),
};

const specsDir = fileURLToPath(new URL('./specs/', import.meta.url));
const said = (text: string | null | undefined) => (text ? ` The proto says: "${text.split('\n')[0]!.trim()}"` : '');
const camel = (s: string) => s.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

function bindingOf(verb: string, template: string, body: string | undefined): Binding {
  const pathFields: string[] = [];
  const source = template
    .split(/(\{[^}]+\})/)
    .map((part) => {
      const m = /^\{([^=}]+)(?:=([^}]+))?\}$/.exec(part);
      if (!m) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      pathFields.push(camel(m[1]!));
      return `(${(m[2] ?? '*').split('/').map((seg) => (seg === '**' ? '.+' : seg === '*' ? '[^/]+' : seg)).join('/')})`;
    })
    .join('');
  return { verb: verb.toUpperCase(), re: new RegExp(`^${source}$`), pathFields, body: body && body !== '*' ? camel(body) : body };
}

export class ProtoValidator {
  private readonly root = new protobuf.Root();
  private readonly methods: { method: protobuf.Method; binding: Binding }[] = [];

  constructor(
    readonly dir: string,
    files: string[],
    service: string,
    private readonly label: string,
  ) {
    // The well-known types the protos import, as protobufjs ships them.
    for (const wkt of ['timestamp', 'wrappers', 'field_mask', 'duration', 'struct', 'empty']) {
      const json = protobuf.common.get(`google/protobuf/${wkt}.proto`);
      if (json?.nested) this.root.addJSON(json.nested);
    }
    for (const f of files) protobuf.parse(readFileSync(`${specsDir}${dir}/${f}`, 'utf8'), this.root, { alternateCommentMode: true });
    const svc = this.root.lookupService(service);
    for (const method of svc.methodsArray) {
      const rule = (method.parsedOptions ?? []).map((o: Record<string, unknown>) => o['(google.api.http)']).find(Boolean) as
        | (Record<string, string> & { additional_bindings?: Record<string, string>[] })
        | undefined;
      if (!rule) continue;
      for (const r of [rule, ...(rule.additional_bindings ?? [])]) {
        const verb = ['get', 'post', 'patch', 'put', 'delete'].find((v) => r[v]);
        if (verb) this.methods.push({ method, binding: bindingOf(verb, r[verb]!, r.body) });
      }
    }
  }

  private fail(message: string): never {
    const v = new SpecViolation(`${this.label}: ${message}`);
    recordViolation(v.message);
    throw v;
  }

  request(httpMethod: string, path: string, query: URLSearchParams, body: unknown): ProtoMatched {
    const hit = this.methods.find((m) => m.binding.verb === httpMethod.toUpperCase() && m.binding.re.test(path));
    if (!hit) this.fail(`${httpMethod} ${path}: no method of the proto has this verb and path`);
    const { method, binding } = hit;
    const request = this.root.lookupType(method.requestType);
    const where = `${method.name}`;
    for (const name of new Set(query.keys())) {
      if (name === '$alt') continue; // the gax REST fallback's system parameter
      const field = request.fields[name];
      if (!field || binding.pathFields.includes(name) || name === binding.body) this.fail(`${where}: query parameter "${name}" is not a field of ${request.name} outside the path and body`);
      for (const v of query.getAll(name)) this.value(`${where}: ${name}`, field, v, true);
    }
    if (binding.body) {
      if (body === null || body === undefined) this.fail(`${where}: the request needs a body`);
      if (binding.body === '*') this.message(`${where} body`, request, body, true);
      else this.message(`${where} body`, this.root.lookupType(request.fields[binding.body]!.resolve().resolvedType!.fullName), body, true);
    }
    return { method, request };
  }

  response(matched: ProtoMatched, body: unknown): void {
    this.message(`${matched.method.name} answer`, this.root.lookupType(matched.method.responseType), body, false);
  }

  private required(field: protobuf.Field): boolean {
    const behaviours = ((field.parsedOptions ?? []) as Record<string, unknown>[]).map((o) => o['(google.api.field_behavior)']);
    return behaviours.includes('REQUIRED') || /^Required\./.test(field.comment ?? '');
  }

  private message(where: string, type: protobuf.Type, v: unknown, isRequest: boolean): void {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) this.fail(`${where}: ${JSON.stringify(v)} is not a ${type.name} object`);
    const obj = v as Record<string, unknown>;
    for (const [k, child] of Object.entries(obj)) {
      const field = type.fields[k] ?? type.fieldsArray.find((f) => f.name === k);
      if (!field) this.fail(`${where}: field "${k}" is not a field of ${type.name} (its fields: ${type.fieldsArray.map((f) => f.name).join(', ')})`);
      this.value(`${where}.${k}`, field, child, false);
    }
    if (isRequest) for (const f of type.fieldsArray) if (this.required(f) && !(f.name in obj)) this.fail(`${where}: required field "${f.name}" is missing.${said(f.comment)}`);
  }

  private value(where: string, field: protobuf.Field, v: unknown, fromQuery: boolean): void {
    if (v === null || v === undefined) return;
    if (field.repeated && !fromQuery) {
      if (!Array.isArray(v)) this.fail(`${where}: ${JSON.stringify(v)} is not a list.${said(field.comment)}`);
      return v.forEach((x, i) => this.single(`${where}[${i}]`, field, x, fromQuery));
    }
    if (field.map) {
      if (typeof v !== 'object' || Array.isArray(v)) this.fail(`${where}: ${JSON.stringify(v)} is not a map.${said(field.comment)}`);
      return;
    }
    this.single(where, field, v, fromQuery);
  }

  private single(where: string, field: protobuf.Field, v: unknown, fromQuery: boolean): void {
    const check = SCALAR[field.type];
    if (check) {
      if (!(fromQuery ? (field.type === 'bool' ? ['true', 'false'].includes(String(v)) : field.type === 'string' || check(v)) : check(v))) {
        this.fail(`${where}: ${JSON.stringify(v)} is not a ${field.type}.${said(field.comment)}`);
      }
      return;
    }
    const resolved = field.resolve().resolvedType;
    if (resolved instanceof protobuf.Enum) {
      if (!(String(v) in resolved.values) && !Object.values(resolved.values).includes(Number(v))) this.fail(`${where}: ${JSON.stringify(v)} is not one of ${Object.keys(resolved.values).join(', ')}.${said(field.comment)}`);
      return;
    }
    if (resolved instanceof protobuf.Type) this.message(where, resolved, v, false);
  }
}

let quotas: ProtoValidator | null = null;
/** Cloud Quotas v1, from the proto files of @google-cloud/cloudquotas 2.4.0 (test/fakes/specs/cloudquotas.v1). */
export function cloudQuotasProto(): ProtoValidator {
  return (quotas ??= new ProtoValidator('cloudquotas.v1', ['resources.proto', 'cloudquotas.proto'], 'google.api.cloudquotas.v1.CloudQuotas', 'cloudquotas v1 (proto, @google-cloud/cloudquotas 2.4.0)'));
}
