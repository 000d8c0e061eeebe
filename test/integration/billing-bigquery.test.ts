import t from 'tap';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BigQuery } from '@google-cloud/bigquery';
import { OAuth2Client } from 'google-auth-library';
import { bigQuerySource } from '../../workers/src/billing-ingest/sources/bigquery.ts';
import { runIngest } from '../../workers/src/billing-ingest/ingest.ts';
import { testEnv } from '../helper.ts';

const ACME = { customerId: 'acme-corp', billingAccountId: '01A2B3-C4D5E6-F7A8B9' };
const TABLE = 'billing-proj.billing_export.gcp_billing_export_v1_01A2B3_C4D5E6_F7A8B9';

const FIELDS = ['usage_date', 'project_id', 'project_name', 'project_labels', 'service', 'sku', 'resource_labels', 'currency', 'invoice_month', 'cost_type', 'cost', 'credits'];
/** Result rows as BigQuery would send them for the adapter's query (every column a STRING). */
const RESULT: (string | null)[][] = [
  ['2025-01-01', 'acme-web-prod', 'Webshop', '[{"key":"team","value":"web"}]', 'Compute Engine', 'N2 Instance Core', '[{"key":"app","value":"shop"}]', 'EUR', '202501', 'regular', '12.123456789', '-2.5'],
  ['2025-01-01', 'acme-analytics', 'Analytics', '[{"key":"team","value":"analytics"}]', 'BigQuery', 'Analysis', '[]', 'EUR', '202501', 'regular', '40.000000001', '0'],
  ['2025-01-02', 'acme-web-prod', 'Webshop', '[{"key":"team","value":"web"}]', 'Compute Engine', 'N2 Instance Core', '[{"key":"app","value":"shop"}]', 'EUR', '202501', 'regular', '11.9', '-2.380000001'],
  ['2025-01-02', 'acme-analytics', 'Analytics', '[{"key":"team","value":"analytics"}]', 'BigQuery', 'Analysis', null, 'EUR', '202501', 'regular', '0.000000007', '0'],
  ['2025-01-03', 'acme-web-prod', 'Webshop', '[]', 'Cloud Storage', 'Standard Storage', '[]', 'EUR', '202501', 'tax', '3.21', '0'],
];
const PAGE = 2;

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  let body = '';
  for await (const c of req) body += c;
  return JSON.parse(body);
}

/** In-process fake of the BigQuery REST API: jobs.query then getQueryResults pages, rows in f/v encoding. */
async function fakeBigQuery(t: { teardown(fn: () => unknown): void }) {
  const unexpected: string[] = [];
  const queries: Record<string, unknown>[] = [];
  const state = { pagesServed: 0 };
  const server = createServer(async (req, res) => {
    const url = new URL(req.url!, 'http://x');
    const send = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    const schema = { fields: FIELDS.map((name) => ({ name, type: 'STRING', mode: 'NULLABLE' })) };
    const page = (start: number) => ({
      kind: 'bigquery#getQueryResultsResponse',
      jobComplete: true,
      jobReference: { projectId: 'billing-proj', jobId: 'job_fake_1', location: 'EU' },
      schema,
      totalRows: String(RESULT.length),
      rows: RESULT.slice(start, start + PAGE).map((r) => ({ f: r.map((v) => ({ v })) })),
      ...(start + PAGE < RESULT.length ? { pageToken: `p${start + PAGE}` } : {}),
    });
    if (req.headers.authorization !== 'Bearer fake-token') return send(401, { error: { code: 401, message: 'no auth', status: 'UNAUTHENTICATED' } });
    if (req.method === 'POST' && url.pathname === '/bigquery/v2/projects/billing-proj/queries') {
      const body = await readJson(req);
      queries.push(body);
      // The job is not done on the first answer, so the client must poll getQueryResults.
      return send(200, { kind: 'bigquery#queryResponse', jobComplete: false, jobReference: { projectId: 'billing-proj', jobId: 'job_fake_1', location: 'EU' } });
    }
    if (req.method === 'GET' && url.pathname === '/bigquery/v2/projects/billing-proj/queries/job_fake_1') {
      const token = url.searchParams.get('pageToken');
      state.pagesServed++;
      return send(200, page(token ? Number(token.slice(1)) : 0));
    }
    unexpected.push(`${req.method} ${req.url}`);
    send(404, { error: { code: 404, message: `Not found: ${url.pathname}`, status: 'NOT_FOUND', errors: [{ message: 'not found', domain: 'global', reason: 'notFound' }] } });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise<void>((r) => server.close(() => r())));
  return {
    port: (server.address() as AddressInfo).port,
    unexpected,
    queries,
    get pagesServed() {
      return state.pagesServed;
    },
  };
}

t.test('BigQuery billing export adapter against a fake BigQuery REST server', async (t) => {
  const fake = await fakeBigQuery(t);
  const { pool } = await testEnv(t);
  const authClient = new OAuth2Client();
  authClient.setCredentials({ access_token: 'fake-token', expiry_date: Date.now() + 3_600_000 });
  const client = new BigQuery({ projectId: 'billing-proj', apiEndpoint: `http://127.0.0.1:${fake.port}`, authClient });
  const source = bigQuerySource({ client, dataset: 'billing-proj.billing_export', location: 'EU', ...ACME, from: '2025-01-01', to: '2025-01-03' });

  const summary = await runIngest({ pool, ...ACME, sourceKind: 'bigquery', source });
  t.same(fake.unexpected, [], 'no request the fake does not know');
  t.equal(summary.rows, 5);
  t.equal(summary.days, 3);

  t.equal(fake.queries.length, 1);
  t.equal(fake.pagesServed, 3, 'all pages followed by pageToken');
  const q = fake.queries[0] as { query: string; useLegacySql: boolean; queryParameters: unknown[]; location: string };
  t.match(q.query, `FROM \`${TABLE}\``);
  t.equal(q.useLegacySql, false);
  t.equal(q.location, 'EU');
  t.same(q.queryParameters, [
    { name: 'from_day', parameterType: { type: 'DATE' }, parameterValue: { value: '2025-01-01' } },
    { name: 'to_day', parameterType: { type: 'DATE' }, parameterValue: { value: '2025-01-03' } },
  ]);

  // Expected sums written out by hand from RESULT: exact, including the 9th decimals.
  const { rows } = await pool.query(
    `SELECT usage_date, sum(cost)::text AS cost, sum(credits)::text AS credits FROM cost_daily WHERE billing_account_id = $1 GROUP BY usage_date ORDER BY usage_date`,
    [ACME.billingAccountId],
  );
  t.same(rows, [
    { usage_date: '2025-01-01', cost: '52.123456790000', credits: '-2.500000000000' },
    { usage_date: '2025-01-02', cost: '11.900000007000', credits: '-2.380000001000' },
    { usage_date: '2025-01-03', cost: '3.210000000000', credits: '0.000000000000' },
  ]);
  const { rows: labels } = await pool.query(
    `SELECT label_kind, label_key, label_value, sum(cost + credits)::text AS spend FROM cost_daily_label GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
  );
  t.same(labels, [
    { label_kind: 'project', label_key: 'team', label_value: 'analytics', spend: '40.000000008000' },
    { label_kind: 'project', label_key: 'team', label_value: 'web', spend: '19.143456788000' },
    { label_kind: 'resource', label_key: 'app', label_value: 'shop', spend: '19.143456788000' },
  ]);
});
