/**
 * Scaffolding shared by the in-process fakes of Google Cloud REST APIs that the official clients reach through
 * their REST fallback (`{fallback: true, protocol: 'http', apiEndpoint: '127.0.0.1', port}`): bearer auth with a
 * token that can be revoked mid-way, injected 429 RESOURCE_EXHAUSTED, AIP-193 error bodies, and a record of
 * every request. Requests no route answers land in `unhandled` (tests assert it stays empty) and get 404.
 *
 * Each request is first checked against the API's discovery document (`specs`, test/fakes/specs/): one the
 * document does not allow is answered 400 INVALID_ARGUMENT with the document's words and recorded as a violation,
 * which fails the test file (spec-violations.ts). Each 2xx answer is checked against the method's response schema.
 * The 400 for a refused request is the fake's choice: the document does not say which error Google answers.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { discovery, SpecViolation, type DiscoveryValidator, type Matched } from './discovery-validator.ts';

export interface GoogleRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: Record<string, unknown> | null;
  token: string | null;
  /** The discovery method the request is (e.g. `licensing.licenseAssignments.listForProduct`). */
  methodId: string;
}

export type Route = (req: GoogleRequest, send: Send) => boolean;
export type Send = (status: number, body: unknown) => void;

const STATUS_NAMES: Record<number, string> = { 400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND', 412: 'FAILED_PRECONDITION', 429: 'RESOURCE_EXHAUSTED' };

/** The AIP-193 error body Cloud v1 APIs answer with. */
export function googleError(code: number, message: string, status = STATUS_NAMES[code] ?? 'UNKNOWN') {
  return { error: { code, message, status } };
}

export interface GoogleFake {
  /** Options for the official client: `{apiEndpoint, port, protocol}`. */
  endpoint: { apiEndpoint: string; port: number; protocol: 'http' };
  requests: GoogleRequest[];
  unhandled: string[];
  /** The bearer token accepted (any other answers 401). */
  token: string;
  /** After `n` more accepted requests the token is rejected, as when a grant is revoked during a sync. */
  revokeTokenAfter(n: number): void;
  /** The next `n` requests answer 429 RESOURCE_EXHAUSTED. */
  quotaExceededNext(n: number): void;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown> | null> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text ? (JSON.parse(text) as Record<string, unknown>) : null;
}

/** The discovery validators of a fake: one per API it stands for, found by the request's path. */
export function validators(specs: string[]): DiscoveryValidator[] {
  return specs.map(discovery);
}

function check(specs: DiscoveryValidator[], r: Omit<GoogleRequest, 'methodId'>): { v: DiscoveryValidator; matched: Matched } {
  const v = specs.find((x) => x.owns(r.path)) ?? specs[0]!;
  return { v, matched: v.request(r.method, r.path, r.query, r.body) };
}

export async function startGoogleFake(name: string, routes: Route[], opts: { token?: string; specs: string[] }): Promise<GoogleFake> {
  const specs = validators(opts.specs);
  const requests: GoogleRequest[] = [];
  const unhandled: string[] = [];
  const state = { revokeAfter: Infinity, quotaFailures: 0 };
  const token = opts.token ?? 'fake-token';

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const url = new URL(req.url!, 'http://fake');
      const auth = req.headers.authorization ?? null;
      const raw = {
        method: req.method!,
        path: decodeURIComponent(url.pathname),
        query: url.searchParams,
        body: await readBody(req),
        token: auth?.startsWith('Bearer ') ? auth.slice(7) : null,
      };
      const reply = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' }).end(JSON.stringify(body));
      let checked: ReturnType<typeof check>;
      try {
        // The document's patterns read the path as sent (a name's own `/` travels as %2F).
        checked = check(specs, { ...raw, path: url.pathname });
      } catch (err) {
        if (!(err instanceof SpecViolation)) throw err;
        requests.push({ ...raw, methodId: '' });
        return reply(400, googleError(400, err.message));
      }
      const r: GoogleRequest = { ...raw, methodId: checked.matched.method.id };
      requests.push(r);
      const send: Send = (status, body) => {
        if (status < 300) checked.v.response(checked.matched, body);
        reply(status, body);
      };
      if (r.token !== token || state.revokeAfter <= 0) {
        return send(401, googleError(401, 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.'));
      }
      state.revokeAfter--;
      if (state.quotaFailures > 0) {
        state.quotaFailures--;
        return send(429, googleError(429, `Quota exceeded for quota metric 'Read requests' of service '${name}'.`));
      }
      if (routes.some((route) => route(r, send))) return;
      unhandled.push(`${r.method} ${url.pathname}${url.search}`);
      send(404, googleError(404, `fake ${name}: no route for ${r.method} ${url.pathname}`));
    })().catch((err: Error) => {
      unhandled.push(`${req.method} ${req.url} threw ${err.message}`);
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: { apiEndpoint: '127.0.0.1', port: (server.address() as AddressInfo).port, protocol: 'http' },
    requests,
    unhandled,
    token,
    revokeTokenAfter: (n) => (state.revokeAfter = n),
    quotaExceededNext: (n) => (state.quotaFailures = n),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The gax REST fallback asks for numeric enums with `$alt=json;enum-encoding=int`; then the answer carries numbers. */
export const wantsIntEnums = (q: URLSearchParams) => (q.get('$alt') ?? '').includes('enum-encoding=int');
