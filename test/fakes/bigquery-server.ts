/**
 * An in-process fake of the BigQuery REST API v2 (https://cloud.google.com/bigquery/docs/reference/rest/v2), for the
 * billing-export adapter: jobs.query (`POST /projects/{p}/queries`), jobs.getQueryResults (`GET …/queries/{jobId}`,
 * long-polling up to `timeoutMs`), jobs.get (`GET …/jobs/{jobId}`) and tables.list (`GET …/datasets/{d}/tables`).
 * Rows use the f/v encoding with every value a string; errors use Google's shape (`error.code/message/status/errors[]`).
 *
 * How the job behaves is chosen per fake (`job`):
 * - `poll` (default): the first answer says `jobComplete: false`; the first poll brings the first page.
 * - `inline`: the first answer is complete and carries the first page and a `pageToken`.
 * - `slow`: `incompletePolls` polls answer `jobComplete: false`, each after holding the request for
 *   min(timeoutMs, holdMs) as BigQuery's long poll does (holdMs keeps tests short; BigQuery's own default is 10 s).
 * - `fail`: the job fails while running: getQueryResults answers the job's error (HTTP 400) and jobs.get shows
 *   `status.errorResult` and `status.errors[]`.
 * - `fail-quiet`: getQueryResults answers 200, complete, with no rows but `errors[]`; only jobs.get says it failed.
 * Unknown requests are recorded in `unexpected` (tests assert it stays empty) and answered 404.
 * Every request is checked against Google's discovery document (specs/bigquery.v2.json) and every 2xx answer
 * against the method's response schema: a request the document does not allow is answered 400 with its words and
 * fails the test (discovery-validator.ts).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { discovery, SpecViolation, type Matched } from './discovery-validator.ts';

export type FakeJobBehaviour = 'poll' | 'inline' | 'slow' | 'fail' | 'fail-quiet';

export interface FakeBigQueryOptions {
  project: string;
  location: string;
  /** Column names of the result (all STRING) and its rows. */
  fields: string[];
  rows: (string | null)[][];
  pageSize: number;
  job?: FakeJobBehaviour;
  incompletePolls?: number;
  holdMs?: number;
  /** Tables of the datasets, for tables.list: `{ 'billing_export': ['gcp_billing_export_v1_…'] }`. */
  tables?: Record<string, string[]>;
  token?: string;
}

export interface FakeBigQuery {
  port: number;
  url: string;
  unexpected: string[];
  /** jobs.query bodies received. */
  queries: Record<string, unknown>[];
  /** Query strings of every getQueryResults call, in order. */
  polls: Record<string, string>[];
  /** jobs.get calls. */
  jobGets: number;
  close(): Promise<void>;
}

const JOB_ID = 'job_fake_1';
/** The documented query parameters of jobs.getQueryResults, and the standard ones every Google API takes. */
const RESULTS_PARAMS = [
  'location',
  'pageToken',
  'maxResults',
  'startIndex',
  'timeoutMs',
  'formatOptions.useInt64Timestamp',
  'formatOptions.timestampOutputFormat',
  ...['prettyPrint', 'fields', 'alt', 'quotaUser', 'key', '$.xgafv'],
];
const FAILURE = {
  reason: 'invalidQuery',
  location: 'query',
  message: 'Resources exceeded during query execution: The query could not be executed in the allotted memory.',
};

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  let body = '';
  for await (const c of req) body += c;
  return JSON.parse(body || '{}');
}

export async function startFakeBigQuery(o: FakeBigQueryOptions): Promise<FakeBigQuery> {
  const behaviour = o.job ?? 'poll';
  const token = o.token ?? 'fake-token';
  const unexpected: string[] = [];
  const queries: Record<string, unknown>[] = [];
  const polls: Record<string, string>[] = [];
  const state = { pollsLeft: behaviour === 'slow' ? (o.incompletePolls ?? 3) : 0, jobGets: 0 };
  const jobReference = { projectId: o.project, jobId: JOB_ID, location: o.location };
  const schema = { fields: o.fields.map((name) => ({ name, type: 'STRING', mode: 'NULLABLE' })) };
  const prefix = `/bigquery/v2/projects/${o.project}`;

  const spec = discovery('bigquery.v2.json');
  const answered = new WeakMap<ServerResponse, Matched>();
  const send = (res: ServerResponse, status: number, body: unknown) => {
    const matched = answered.get(res);
    try {
      if (matched && status < 300) spec.response(matched, body);
    } catch (err) {
      // The fake answered outside the document (recorded as a violation): a 500 instead of a hang.
      return sendRaw(res, 500, { error: { code: 500, message: (err as Error).message, status: 'INTERNAL' } });
    }
    sendRaw(res, status, body);
  };
  const sendRaw = (res: ServerResponse, status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' }).end(JSON.stringify(body));
  const googleError = (res: ServerResponse, code: number, status: string, message: string, reason: string) =>
    send(res, code, { error: { code, message, status, errors: [{ message, domain: 'global', reason }] } });
  const page = (start: number, kind: string) => ({
    kind,
    jobComplete: true,
    jobReference,
    schema,
    totalRows: String(o.rows.length),
    rows: o.rows.slice(start, start + o.pageSize).map((r) => ({ f: r.map((v) => ({ v })) })),
    ...(start + o.pageSize < o.rows.length ? { pageToken: `p${start + o.pageSize}` } : {}),
    totalBytesProcessed: '1024',
    cacheHit: false,
  });

  const server = createServer(async (req, res) => {
    const url = new URL(req.url!, 'http://x');
    if (req.headers.authorization !== `Bearer ${token}`) return googleError(res, 401, 'UNAUTHENTICATED', 'Request is missing required authentication credential.', 'required');
    const posted = req.method === 'POST' ? await readJson(req) : null;
    try {
      answered.set(res, spec.request(req.method!, url.pathname, url.searchParams, posted));
    } catch (err) {
      if (!(err instanceof SpecViolation)) throw err;
      return googleError(res, 400, 'INVALID_ARGUMENT', err.message, 'invalid');
    }
    if (req.method === 'POST' && url.pathname === `${prefix}/queries`) {
      const body = posted!;
      queries.push(body);
      if (body.location !== o.location) return googleError(res, 404, 'NOT_FOUND', `Not found: Dataset in location ${String(body.location)}`, 'notFound');
      // The result's columns are the query's: a column the fake is to answer that the query does not select is
      // refused as BigQuery refuses an unknown name, so a test's rows cannot drift from the adapter's query.
      const missing = o.fields.find((f) => !new RegExp(`\\b${f}\\b`).test(String(body.query ?? '')));
      if (missing) return googleError(res, 400, 'INVALID_ARGUMENT', `Unrecognized name: ${missing} at [1:1]`, 'invalidQuery');
      if (behaviour === 'inline') return send(res, 200, page(0, 'bigquery#queryResponse'));
      return send(res, 200, { kind: 'bigquery#queryResponse', jobComplete: false, jobReference });
    }
    if (req.method === 'GET' && url.pathname === `${prefix}/queries/${JOB_ID}`) {
      polls.push(Object.fromEntries(url.searchParams));
      const bad = [...url.searchParams.keys()].find((k) => !RESULTS_PARAMS.includes(k));
      if (bad) return googleError(res, 400, 'INVALID_ARGUMENT', `Invalid JSON payload received. Unknown name "${bad}": Cannot bind query parameter.`, 'invalid');
      if (url.searchParams.get('location') !== o.location) return googleError(res, 404, 'NOT_FOUND', `Not found: Job ${o.project}:${JOB_ID}`, 'notFound');
      const token = url.searchParams.get('pageToken');
      if (token) return send(res, 200, page(Number(token.slice(1)), 'bigquery#getQueryResultsResponse'));
      if (state.pollsLeft > 0) {
        state.pollsLeft--;
        const timeoutMs = Number(url.searchParams.get('timeoutMs') ?? 10_000);
        await new Promise((r) => setTimeout(r, Math.min(timeoutMs, o.holdMs ?? 50)));
        return send(res, 200, { kind: 'bigquery#getQueryResultsResponse', jobComplete: false, jobReference });
      }
      if (behaviour === 'fail') return googleError(res, 400, 'INVALID_ARGUMENT', FAILURE.message, FAILURE.reason);
      if (behaviour === 'fail-quiet') {
        return send(res, 200, { kind: 'bigquery#getQueryResultsResponse', jobComplete: true, jobReference, schema, totalRows: '0', errors: [FAILURE] });
      }
      return send(res, 200, page(0, 'bigquery#getQueryResultsResponse'));
    }
    if (req.method === 'GET' && url.pathname === `${prefix}/jobs/${JOB_ID}`) {
      state.jobGets++;
      const failed = behaviour === 'fail' || behaviour === 'fail-quiet';
      return send(res, 200, {
        kind: 'bigquery#job',
        id: `${o.project}:${o.location}.${JOB_ID}`,
        jobReference,
        configuration: { jobType: 'QUERY', query: { query: String(queries[0]?.query ?? ''), useLegacySql: false } },
        status: failed ? { state: 'DONE', errorResult: FAILURE, errors: [FAILURE] } : { state: 'DONE' },
        statistics: { creationTime: String(Date.now() - 1000), startTime: String(Date.now() - 900), endTime: String(Date.now()) },
      });
    }
    const tables = new RegExp(`^${prefix}/datasets/([^/]+)/tables$`).exec(url.pathname);
    if (req.method === 'GET' && tables) {
      const dataset = decodeURIComponent(tables[1]);
      const names = o.tables?.[dataset];
      if (!names) return googleError(res, 404, 'NOT_FOUND', `Not found: Dataset ${o.project}:${dataset}`, 'notFound');
      return send(res, 200, {
        kind: 'bigquery#tableList',
        etag: 'fake',
        tables: names.map((tableId) => ({ kind: 'bigquery#table', id: `${o.project}:${dataset}.${tableId}`, tableReference: { projectId: o.project, datasetId: dataset, tableId }, type: 'TABLE' })),
        totalItems: names.length,
      });
    }
    unexpected.push(`${req.method} ${req.url}`);
    googleError(res, 404, 'NOT_FOUND', `Not found: ${url.pathname}`, 'notFound');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    unexpected,
    queries,
    polls,
    get jobGets() {
      return state.jobGets;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
