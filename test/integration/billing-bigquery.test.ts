import t from 'tap';
import { BigQuery } from '@google-cloud/bigquery';
import { OAuth2Client } from 'google-auth-library';
import { bigQuerySource } from '@cc/shared/adapters/bigquery/real.ts';
import { runIngest } from '../../workers/src/billing-ingest/ingest.ts';
import { testEnv } from '../helper.ts';
import { startFakeBigQuery, type FakeBigQueryOptions, type FakeJobBehaviour } from '../fakes/bigquery-server.ts';
import type { Pool } from '@cc/shared/db/pool.ts';

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

async function setup(t: { teardown(fn: () => unknown): void }, job: FakeJobBehaviour = 'poll', extra: Partial<FakeBigQueryOptions> = {}) {
  const fake = await startFakeBigQuery({ project: 'billing-proj', location: 'EU', fields: FIELDS, rows: RESULT, pageSize: PAGE, job, ...extra });
  t.teardown(() => fake.close());
  const { pool } = await testEnv(t);
  const authClient = new OAuth2Client();
  authClient.setCredentials({ access_token: 'fake-token', expiry_date: Date.now() + 3_600_000 });
  const client = new BigQuery({ projectId: 'billing-proj', apiEndpoint: fake.url, authClient });
  const source = bigQuerySource({ client, dataset: 'billing-proj.billing_export', location: 'EU', ...ACME, from: '2025-01-01', to: '2025-01-03' });
  return { fake, pool, client, source };
}

/** Daily sums of the loaded spend, written out by hand from RESULT below: exact, including the 9th decimals. */
const DAILY = [
  { usage_date: '2025-01-01', cost: '52.123456790000', credits: '-2.500000000000' },
  { usage_date: '2025-01-02', cost: '11.900000007000', credits: '-2.380000001000' },
  { usage_date: '2025-01-03', cost: '3.210000000000', credits: '0.000000000000' },
];
const daily = async (pool: Pool) =>
  (
    await pool.query(
      `SELECT usage_date, sum(cost)::text AS cost, sum(credits)::text AS credits FROM cost_daily WHERE billing_account_id = $1 GROUP BY usage_date ORDER BY usage_date`,
      [ACME.billingAccountId],
    )
  ).rows;

t.test('BigQuery billing export adapter against a fake BigQuery REST server', async (t) => {
  const { fake, pool, source } = await setup(t);

  const summary = await runIngest({ pool, ...ACME, sourceKind: 'bigquery', source });
  t.same(fake.unexpected, [], 'no request the fake does not know');
  t.equal(summary.rows, 5);
  t.equal(summary.days, 3);

  t.equal(fake.queries.length, 1);
  t.same(fake.polls.map((p) => p.pageToken ?? 'poll'), ['poll', 'p2', 'p4'], 'polled once, then every page followed by pageToken');
  t.equal(fake.jobGets, 1, "the job's status is read before any row is used");
  const q = fake.queries[0] as { query: string; useLegacySql: boolean; queryParameters: unknown[]; location: string };
  t.match(q.query, `FROM \`${TABLE}\``);
  t.equal(q.useLegacySql, false);
  t.equal(q.location, 'EU');
  t.same(q.queryParameters, [
    { name: 'from_day', parameterType: { type: 'DATE' }, parameterValue: { value: '2025-01-01' } },
    { name: 'to_day', parameterType: { type: 'DATE' }, parameterValue: { value: '2025-01-03' } },
  ]);

  t.same(await daily(pool), DAILY);
  const { rows: labels } = await pool.query(
    `SELECT label_kind, label_key, label_value, sum(cost + credits)::text AS spend FROM cost_daily_label GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
  );
  t.same(labels, [
    { label_kind: 'project', label_key: 'team', label_value: 'analytics', spend: '40.000000008000' },
    { label_kind: 'project', label_key: 'team', label_value: 'web', spend: '19.143456788000' },
    { label_kind: 'resource', label_key: 'app', label_value: 'shop', spend: '19.143456788000' },
  ]);
});

t.test('rows inline in the first jobs.query answer, the rest by pageToken', async (t) => {
  const { fake, pool, source } = await setup(t, 'inline');
  const summary = await runIngest({ pool, ...ACME, sourceKind: 'bigquery', source });
  t.equal(summary.rows, 5);
  t.same(fake.polls.map((p) => p.pageToken), ['p2', 'p4'], 'no poll for the inline first page; the next pages by token');
  t.same(await daily(pool), DAILY);
  t.same(fake.unexpected, []);
});

t.test('a job still running after several long polls is waited for', async (t) => {
  const { fake, pool, source } = await setup(t, 'slow', { incompletePolls: 4, holdMs: 30 });
  const summary = await runIngest({ pool, ...ACME, sourceKind: 'bigquery', source });
  t.equal(summary.rows, 5);
  const waits = fake.polls.filter((p) => !p.pageToken);
  t.equal(waits.length, 5, 'four incomplete answers, then the complete one');
  t.ok(waits.every((p) => p.timeoutMs === '10000' && p.location === 'EU'), 'each poll asks BigQuery to hold up to 10 s, in the job location');
  t.same(await daily(pool), DAILY);
  t.same(fake.unexpected, []);
});

for (const job of ['fail', 'fail-quiet'] as const) {
  t.test(`a failed job (${job === 'fail' ? "getQueryResults answers the job's error" : 'only jobs.get says so'}) fails the ingest and loads nothing`, async (t) => {
    const { fake, pool, source } = await setup(t, job);
    await t.rejects(runIngest({ pool, ...ACME, sourceKind: 'bigquery', source }), {
      name: 'BigQueryJobFailed',
      message: 'BigQuery job job_fake_1 failed: invalidQuery at query: Resources exceeded during query execution: The query could not be executed in the allotted memory.',
    });
    t.same((await pool.query('SELECT count(*)::int AS n FROM cost_line')).rows[0], { n: 0 }, 'no spend loaded');
    const batch = (await pool.query(`SELECT status, error FROM ingest_batch ORDER BY id DESC LIMIT 1`)).rows[0];
    t.equal(batch.status, 'failed');
    t.match(batch.error.message, /^BigQuery job job_fake_1 failed: invalidQuery/);
    t.equal(fake.jobGets, 1);
    t.same(fake.unexpected, []);
  });
}

t.test('a job that never completes ends the ingest with a clear message', async (t) => {
  const { fake, pool, client } = await setup(t, 'slow', { incompletePolls: 1000, holdMs: 20 });
  const source = bigQuerySource({ client, dataset: 'billing-proj.billing_export', location: 'EU', ...ACME, from: '2025-01-01', to: '2025-01-03', maxQueryMs: 1000 });
  await t.rejects(runIngest({ pool, ...ACME, sourceKind: 'bigquery', source }), { name: 'BigQueryJobFailed', message: /^BigQuery job job_fake_1 did not complete within 1 s$/ });
  t.same((await pool.query('SELECT count(*)::int AS n FROM cost_line')).rows[0], { n: 0 });
  t.same(fake.unexpected, []);
});
