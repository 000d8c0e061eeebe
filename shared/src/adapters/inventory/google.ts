/**
 * What the Cloud Asset and Recommender adapters share: how the official clients are pointed at Google or at an
 * in-process fake (REST fallback, external-apis.md §0), paging until `nextPageToken` is absent, back-off on
 * quota, and turning the clients' protobuf objects (Struct, Value, Timestamp, Money) back into plain JSON.
 */
import type { AssetServiceClient } from '@google-cloud/asset';
import { InventorySourceError } from '../../ports/inventory.ts';

/** Where the clients send requests; the default is Google. Tests use `{apiEndpoint: '127.0.0.1', port, protocol: 'http'}`. */
export interface GoogleEndpoint {
  apiEndpoint?: string;
  port?: number;
  protocol?: 'http' | 'https';
}

/** The options both clients take (google-gax ClientOptions). */
export type ClientOptions = NonNullable<ConstructorParameters<typeof AssetServiceClient>[0]>;

/** The credentials a client calls with (an `Impersonated` client of the customer's service account in production). */
export type GoogleAuthClient = NonNullable<ClientOptions['authClient']>;

/**
 * REST (HTTP/1.1 + JSON) instead of gRPC: one transport for Google and the fakes, and no gRPC channel per
 * customer. Enums then come back as names and int64 as strings.
 */
export function clientOptions(authClient: GoogleAuthClient, endpoint: GoogleEndpoint = {}): ClientOptions {
  return { fallback: true, authClient, ...endpoint };
}

// google.rpc.Code values (errors decoded by gax) and HTTP statuses (errors thrown by the auth client's transport).
const RESOURCE_EXHAUSTED = 8;
const UNAVAILABLE = 14;

export interface Backoff {
  /** Retries after the first attempt. */
  retries: number;
  /** First wait; doubled on each retry. */
  baseMs: number;
  sleep: (ms: number) => Promise<void>;
}

export const DEFAULT_BACKOFF: Backoff = { retries: 4, baseMs: 2000, sleep: (ms) => new Promise((r) => setTimeout(r, ms)) };

interface UpstreamError {
  code?: unknown;
  status?: unknown;
  message?: string;
  response?: { status?: number; data?: unknown };
}

interface GoogleErrorBody {
  error?: { code?: number; message?: string; status?: string };
}

function parseBody(v: unknown): GoogleErrorBody['error'] {
  if (typeof v === 'string') {
    try {
      return parseBody(JSON.parse(v));
    } catch {
      return undefined;
    }
  }
  return v && typeof v === 'object' ? (v as GoogleErrorBody).error : undefined;
}

/** HTTP status, Google status name and message of a failed call, whichever layer threw it. */
function describe(err: unknown): { http: number | undefined; grpc: number | undefined; text: string } {
  const e = (err ?? {}) as UpstreamError;
  // The transport's error carries the AIP-193 body in `response.data`, or only as its message text.
  const body = parseBody(e.response?.data) ?? parseBody(e.message);
  const http = e.response?.status ?? (typeof e.status === 'number' ? e.status : undefined);
  const grpc = !e.response && typeof e.code === 'number' ? e.code : undefined;
  const text = body?.message ? `${http ?? body.code} ${body.status ?? ''}: ${body.message}`.replace(' :', ':') : (e.message ?? String(err));
  return { http, grpc, text };
}

/**
 * Runs `call`, waiting and retrying on 429 RESOURCE_EXHAUSTED and 503 UNAVAILABLE; every other error, and the
 * last quota error, becomes an InventorySourceError naming `what`.
 */
export async function withBackoff<T>(what: string, backoff: Backoff, call: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      const { http, grpc, text } = describe(err);
      const retryable = http === 429 || http === 503 || grpc === RESOURCE_EXHAUSTED || grpc === UNAVAILABLE;
      if (retryable && attempt < backoff.retries) {
        await backoff.sleep(backoff.baseMs * 2 ** attempt);
        continue;
      }
      throw new InventorySourceError(`${what} failed: ${text}`, retryable);
    }
  }
}

/**
 * Every page of a list call. Pages may hold fewer items than asked, or none, before the end: only an absent
 * `nextPageToken` ends the listing. A token that repeats, or more than `maxPages`, is an upstream fault.
 */
export async function allPages<T>(
  what: string,
  maxPages: number,
  page: (pageToken: string) => Promise<{ items: T[]; nextPageToken?: string | null }>,
): Promise<T[]> {
  const out: T[] = [];
  const seen = new Set<string>();
  let token = '';
  for (let n = 0; n < maxPages; n++) {
    const { items, nextPageToken } = await page(token);
    out.push(...items);
    if (!nextPageToken) return out;
    if (seen.has(nextPageToken)) throw new InventorySourceError(`${what}: page token ${nextPageToken} came back twice`);
    seen.add(nextPageToken);
    token = nextPageToken;
  }
  throw new InventorySourceError(`${what}: more than ${maxPages} pages`);
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A google.protobuf.Value as the client decodes it (`kind` names the set field, the others hold defaults). */
function valueToJson(v: Obj): unknown {
  switch (v.kind) {
    case 'nullValue':
      return null;
    case 'numberValue':
      return v.numberValue;
    case 'stringValue':
      return v.stringValue;
    case 'boolValue':
      return v.boolValue;
    case 'structValue':
      return structToJson(v.structValue);
    case 'listValue':
      return ((v.listValue as Obj | null)?.values as Obj[] | undefined)?.map(valueToJson) ?? [];
    default:
      return null;
  }
}

/** A google.protobuf.Struct (`{fields: {k: Value}}`) → plain JSON object. */
export function structToJson(s: unknown): Obj {
  const fields = isObj(s) && isObj(s.fields) ? s.fields : {};
  return Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, isObj(v) ? valueToJson(v) : null]));
}

/** A google.protobuf.Value (as a map value or a field) → plain JSON. */
export function protoValueToJson(v: unknown): unknown {
  return isObj(v) ? valueToJson(v) : null;
}

/** google.protobuf.Timestamp (`{seconds: '…', nanos}`) → RFC 3339, or null when unset. */
export function timestampToIso(ts: unknown): string | null {
  if (!isObj(ts) || ts.seconds === undefined || ts.seconds === null) return null;
  const ms = BigInt(String(ts.seconds)) * 1000n + BigInt(Math.trunc(Number(ts.nanos ?? 0) / 1e6));
  return ms === 0n ? null : new Date(Number(ms)).toISOString();
}

/** google.type.Money (`units` int64 string, `nanos` with the same sign) → exact decimal string. */
export function moneyToDecimal(units: unknown, nanos: unknown): string {
  const total = BigInt(String(units ?? 0)) * 1_000_000_000n + BigInt(Math.trunc(Number(nanos ?? 0)));
  const sign = total < 0n ? '-' : '';
  const abs = total < 0n ? -total : total;
  const frac = String(abs % 1_000_000_000n).padStart(9, '0').replace(/0+$/, '');
  return `${sign}${abs / 1_000_000_000n}${frac ? `.${frac}` : ''}`;
}

/** google.protobuf.Duration (`{seconds, nanos}`) → `2592000s`, or null when unset. */
export function durationToString(d: unknown): string | null {
  if (!isObj(d) || d.seconds === undefined || d.seconds === null) return null;
  return `${String(d.seconds)}s`;
}
