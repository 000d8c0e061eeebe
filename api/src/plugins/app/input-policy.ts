import fp from 'fastify-plugin';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { INPUT_LIMITS } from '@cc/shared/schemas/common.ts';
import { errors } from '../../errors.ts';

/**
 * One input policy for every route, so no input can reach PostgreSQL (or a recursion) in a shape that
 * makes it fail with a 500:
 * - strings (path, query, body values and keys) hold no NUL or other control character (tab, newline and
 *   carriage return excepted) and no unpaired surrogate: PostgreSQL text refuses 0x00, jsonb refuses
 *   \u0000 and lone surrogates;
 * - the URL is valid UTF-8 (framework errors such as a bad percent-encoding answer `{ detail }` too);
 * - bodies nest at most INPUT_LIMITS.jsonDepth levels (a 5,000-deep one overflows PostgreSQL's jsonb); checked
 *   on the parsed body, so routes with a parser of their own (the Jira webhook keeps the raw bytes) are held too;
 * - every integer and number in a params, query or body schema that declares no range gets one
 *   (integers: PostgreSQL `integer`; 99999999999999999999 overflows it), a coerced query or path number
 *   must be finite ('1e309' becomes Infinity), and every string without a maxLength gets one.
 * Each refusal is a 400 `{ detail }` naming the part, like the validation messages.
 */

// eslint-disable-next-line no-control-regex -- finding control characters is the point
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const badString = (s: string) => FORBIDDEN.test(s);

/**
 * Why a parsed value breaks the policy (`part/key/… must not …`), or null. Walking stops at the depth
 * limit, so a hostile nesting costs at most that many frames.
 */
function offending(value: unknown, where: string, depth = 0): string | null {
  if (typeof value === 'string') return badString(value) ? `${where} must not contain control characters or unpaired surrogates` : null;
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return null;
  if (depth >= INPUT_LIMITS.jsonDepth) return `${where.split('/')[0]} must not nest deeper than ${INPUT_LIMITS.jsonDepth} levels`;
  for (const [k, v] of Object.entries(value)) {
    if (badString(k)) return `${where} must not contain control characters or unpaired surrogates in a key`;
    const found = offending(v, `${where}/${k}`, depth + 1);
    if (found) return found;
  }
  return null;
}

/** Query components must decode as UTF-8: an invalid one would otherwise reach handlers half-decoded. */
function queryIsUtf8(url: string): boolean {
  const q = url.indexOf('?');
  // only a percent escape can fail to decode: most queries have none (the check ran on every request)
  if (q < 0 || url.indexOf('%', q) < 0) return true;
  try {
    for (const part of url.slice(q + 1).split(/[&=]/)) decodeURIComponent(part.replace(/\+/g, ' '));
    return true;
  } catch {
    return false;
  }
}

type Schema = Record<string | symbol, unknown>;

/** A copy of the schema with the policy's default bounds filled in; shared schema objects stay untouched. */
export function bounded(schema: unknown, maxLength: number): unknown {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return schema;
  const s = schema as Schema;
  // A schema with an $id is registered by reference; a modified copy under the same id would clash.
  if (s.$id !== undefined) return s;
  const out: Schema = { ...s };
  const types = ([] as unknown[]).concat(out.type ?? []);
  const range = types.includes('integer') ? INPUT_LIMITS.integer : types.includes('number') ? INPUT_LIMITS.number : null;
  if (range) {
    if (out.minimum === undefined && out.exclusiveMinimum === undefined) out.minimum = range.min;
    if (out.maximum === undefined && out.exclusiveMaximum === undefined) out.maximum = range.max;
  }
  if (types.includes('string') && out.maxLength === undefined) out.maxLength = maxLength;
  for (const key of ['properties', 'patternProperties'] as const) {
    if (out[key] && typeof out[key] === 'object') {
      out[key] = Object.fromEntries(Object.entries(out[key] as object).map(([k, v]) => [k, bounded(v, maxLength)]));
    }
  }
  for (const key of ['items', 'additionalProperties', 'not'] as const) {
    if (Array.isArray(out[key])) out[key] = (out[key] as unknown[]).map((v) => bounded(v, maxLength));
    else if (out[key] && typeof out[key] === 'object') out[key] = bounded(out[key], maxLength);
  }
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const) {
    if (Array.isArray(out[key])) out[key] = (out[key] as unknown[]).map((v) => bounded(v, maxLength));
  }
  return out;
}

/** Fastify's own refusals (bad percent-encoding, overlong path parameter) in the api's `{ detail }` shape. */
export function frameworkErrors(err: FastifyError, _req: FastifyRequest, reply: FastifyReply) {
  const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 400;
  void reply.code(status).send({ detail: err.code === 'FST_ERR_BAD_URL' ? 'The URL is not valid UTF-8' : err.message });
}

export default fp(
  async (app) => {
    app.addHook('onRoute', (route) => {
      if (!route.schema) return;
      const schema = { ...route.schema };
      if (schema.params) schema.params = bounded(schema.params, INPUT_LIMITS.urlString);
      if (schema.querystring) schema.querystring = bounded(schema.querystring, INPUT_LIMITS.urlString);
      if (schema.body) schema.body = bounded(schema.body, INPUT_LIMITS.bodyString);
      route.schema = schema;
    });

    app.addHook('onRequest', async (req) => {
      if (!queryIsUtf8(req.url)) throw new errors.badRequest('querystring is not valid UTF-8');
      const problem = offending(req.params, 'params') ?? offending(req.query, 'querystring');
      if (problem) throw new errors.badRequest(problem);
    });

    // Ajv coerces the query text '1e309' to Infinity and then skips minimum/maximum for a non-finite number,
    // so the range of a coerced integer is enforced once more after validation.
    app.addHook('preHandler', async (req) => {
      for (const [part, values] of [['params', req.params], ['querystring', req.query]] as const) {
        for (const [k, v] of Object.entries((values ?? {}) as Record<string, unknown>)) {
          if ([v].flat().some((n) => typeof n === 'number' && !Number.isFinite(n))) throw new errors.badRequest(`${part}/${k} must be a finite number`);
        }
      }
    });

    // preValidation, registered before the tenant guard: a customer id in the body is checked before any lookup.
    app.addHook('preValidation', async (req) => {
      const problem = offending(req.body, 'body');
      if (problem) throw new errors.badRequest(problem);
    });

  },
  { name: 'input-policy' },
);
