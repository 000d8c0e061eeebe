/**
 * Usage or price on GCP rows: the billing export's usage.amount, read by the BigQuery adapter (against its fake,
 * which holds requests and answers to Google's discovery document) into cost_line.usage_quantity, lets the
 * explanation tell a usage rise from a unit-price rise. The series mix currencies (EUR and USD rows, each day at its
 * own rate), credits and an adjustment row of the export; listed contributors + rest = rise exactly on both.
 */
import t from 'tap';
import { BigQuery } from '@google-cloud/bigquery';
import { OAuth2Client } from 'google-auth-library';
import type { JobFor } from '@cc/shared/queues.ts';
import { addDays } from '@cc/shared/time.ts';
import { bigQuerySource, quantity } from '@cc/shared/adapters/bigquery/real.ts';
import { anomalyDetectHandler } from '../../workers/src/jobs/anomaly-detect.ts';
import { runIngest } from '../../workers/src/billing-ingest/ingest.ts';
import { build, login, bearer } from '../helper.ts';
import { startFakeBigQuery } from '../fakes/bigquery-server.ts';

const ACME = { customerId: 'acme-corp', billingAccountId: '01A2B3-C4D5E6-F7A8B9' };
const DAY = '2026-10-28';
const FIRST = addDays(DAY, -28);
const days = Array.from({ length: 29 }, (_, i) => addDays(FIRST, i));
/** USD per EUR (ECB convention), one rate a day so each day converts at its own. */
const usdRate = (d: string) => (1.07 + (Number(d.slice(8)) % 7) / 100).toFixed(4);

const FIELDS = ['usage_date', 'project_id', 'project_name', 'project_labels', 'service', 'sku', 'resource_labels', 'currency', 'invoice_month', 'cost_type',
  'cost', 'credits', 'usage_amount'];

function exportRows(): (string | null)[][] {
  const rows: (string | null)[][] = [];
  const project = ['acme-data', 'Data', '[{"key":"team","value":"data"}]'];
  for (const d of days) {
    const judged = d === DAY;
    const month = d.slice(0, 7).replace('-', '');
    const row = (service: string, sku: string, currency: string, cost: string, credits: string, usage: string | null, labels = '[{"key":"app","value":"lake"}]') =>
      rows.push([d, ...project, service, sku, labels, currency, month, 'regular', cost, credits, usage]);
    // BigQuery: four times the bytes scanned on the judged day at the same price, with its sustained discount
    row('BigQuery', 'Analysis', 'EUR', judged ? '40.000000004' : '10.000000001', judged ? '-4.000000004' : '-1.000000001', judged ? '8' : '2');
    // billed in USD on the same series, converted day by day
    row('BigQuery', 'Long Term Logical Storage', 'USD', '3.21', '0', '1500.5');
    // Cloud Storage: the same gigabytes, three times the unit price on the judged day
    row('Cloud Storage', 'Standard Storage Europe', 'EUR', judged ? '18' : '6', '-0.6', '1000', '[{"key":"app","value":"archive"}]');
    // a SKU whose rows carry no usage amount
    row('Cloud Storage', 'Operations Class A', 'USD', '0.1', '0', null, '[{"key":"app","value":"archive"}]');
  }
  // an adjustment of the export three days before: a correction with its own credit and no usage
  rows.push([addDays(DAY, -3), ...project, 'BigQuery', 'Analysis', '[]', 'EUR', '202610', 'adjustment', '-0.5', '0.1', '0']);
  return rows;
}

const explanationUrl = (project: string, service: string) =>
  `/v1/anomalies/customer_id/${ACME.customerId}/billing_account_id/${ACME.billingAccountId}/date/${DAY}/project_id/${encodeURIComponent(project)}/service/${encodeURIComponent(service)}/explanation`;

t.test('usage.amount is a plain decimal or nothing', async (t) => {
  t.equal(quantity('8'), '8');
  t.equal(quantity('1500.500000000'), '1500.5');
  t.equal(quantity('1.5E-7'), '0.00000015');
  t.equal(quantity(null), null);
  t.equal(quantity(undefined), null);
  t.equal(quantity('NaN'), null);
});

t.test('GCP rows: usage.amount loaded, usage told from price, exact sums with credits, an adjustment and two currencies', async (t) => {
  const app = await build(t);
  const { pool } = app.env;
  for (const d of days) await pool.query(`INSERT INTO fx_rate (currency, rate_date, rate, source) VALUES ('USD', $1, $2, 'ecb')`, [d, usdRate(d)]);

  const fake = await startFakeBigQuery({ project: 'billing-proj', location: 'EU', fields: FIELDS, rows: exportRows(), pageSize: 50, job: 'inline' });
  t.teardown(() => fake.close());
  const authClient = new OAuth2Client();
  authClient.setCredentials({ access_token: 'fake-token', expiry_date: Date.now() + 3_600_000 });
  const client = new BigQuery({ projectId: 'billing-proj', apiEndpoint: fake.url, authClient });
  await runIngest({ pool, ...ACME, sourceKind: 'bigquery', source: bigQuerySource({ client, dataset: 'billing-proj.billing_export', location: 'EU', ...ACME, from: FIRST, to: DAY }) });
  t.same(fake.unexpected, []);
  t.match((fake.queries[0] as { query: string }).query, /SUM\(CAST\(usage\.amount AS NUMERIC\)\)/, 'the export query sums usage.amount');

  const { rows: loaded } = await pool.query<{ sku: string; usage_quantity: string | null }>(
    `SELECT sku, usage_quantity::text FROM cost_line WHERE project_id = 'acme-data' AND usage_date = $1 ORDER BY sku`,
    [DAY],
  );
  t.same(loaded, [
    { sku: 'Analysis', usage_quantity: '8' },
    { sku: 'Long Term Logical Storage', usage_quantity: '1500.5' },
    { sku: 'Operations Class A', usage_quantity: null },
    { sku: 'Standard Storage Europe', usage_quantity: '1000' },
  ], 'usage.amount is each line\'s usage_quantity (NULL where the export has none)');

  const detected = (await anomalyDetectHandler({ pool, enqueue: app.producers.enqueue, publicUrl: 'http://cc.test' })({
    data: { customer_id: ACME.customerId, date: DAY },
  } as JobFor<'anomaly-detect'>)) as { runs: { billing_account_id: string; flagged: number }[] };
  t.equal(detected.runs.find((r) => r.billing_account_id === ACME.billingAccountId)!.flagged, 2, 'both services of acme-data flagged');

  const { rows: sums } = await pool.query<{ service: string; dimension: string; exact: boolean; total: string; rise: string }>(
    `SELECT x.service, c.dimension, sum(c.contribution) = x.to_date_cost - x.mean_cost AS exact, sum(c.contribution)::text AS total,
            (x.to_date_cost - x.mean_cost)::text AS rise
       FROM anomaly x JOIN anomaly_contributor c ON c.anomaly_id = x.id
      WHERE x.project_id = 'acme-data' AND x.date = $1 AND x.flagged
      GROUP BY x.service, c.dimension, x.to_date_cost, x.mean_cost ORDER BY x.service, c.dimension`,
    [DAY],
  );
  t.same(sums.map((s) => `${s.service}/${s.dimension}`), ['BigQuery/label', 'BigQuery/resource', 'BigQuery/sku', 'Cloud Storage/label', 'Cloud Storage/resource', 'Cloud Storage/sku']);
  for (const s of sums) t.ok(s.exact, `${s.service} ${s.dimension}: listed + rest = ${s.total} = rise ${s.rise}`);

  const alice = await login(app, 'alice@acme.example');
  const get = async (service: string) => {
    const res = await app.inject({ method: 'GET', url: explanationUrl('acme-data', service), headers: bearer(alice) });
    t.equal(res.statusCode, 200);
    return res.json();
  };
  const cents = (v: number) => Math.round(v * 100);

  const bq = await get('BigQuery');
  t.match(bq.lead, { dimension: 'sku', name: 'Analysis' });
  t.equal(bq.kind, 'usage');
  t.equal(bq.kind_text, 'usage ×4.0, unit price unchanged');
  t.match(bq.sentence, /\d+ % of the rise is SKU 'Analysis' \(usage ×4\.0, unit price unchanged\)/);
  const gcs = await get('Cloud Storage');
  t.match(gcs.lead, { dimension: 'sku', name: 'Standard Storage Europe' });
  t.equal(gcs.kind, 'price');
  t.equal(gcs.kind_text, 'unit price ×3.0, usage unchanged');
  t.match(gcs.sentence, /\d+ % of the rise is SKU 'Standard Storage Europe' \(unit price ×3\.0, usage unchanged\)/);
  for (const e of [bq, gcs]) {
    for (const dim of ['sku', 'resource', 'label']) {
      const c = e.contributors.filter((x: { dimension: string }) => x.dimension === dim);
      t.equal(c.reduce((a: number, x: { contribution: number }) => a + cents(x.contribution), 0), cents(e.rise), `${dim}: shown figures add up to the shown rise`);
    }
  }
  t.comment(bq.sentence);
  t.comment(gcs.sentence);
});
