/**
 * Anomalies after the customer's currency changes: the Anomaly Detection screen never mixes currencies.
 * An EUR customer with EUR (GCP) and USD (AWS) spend is judged in EUR; its currency then becomes USD. The stored EUR
 * anomalies are shown in USD, each figure converted at the rate of its own date (computed here with decimal.js from
 * the test's fixings), the thresholds applying to the converted figures; an anomaly whose date has no rate is left
 * out; re-judging the day in USD replaces the EUR findings without e-mailing them again.
 */
import t from 'tap';
import Decimal from 'decimal.js';
import type { JobFor } from '@cc/shared/queues.ts';
import type { BillingSource, CostRow } from '@cc/shared/ports/billing-source.ts';
import { saveRates } from '@cc/shared/db/fx-rates.ts';
import { addDays, billingToday } from '@cc/shared/time.ts';
import { runIngest } from '../../workers/src/billing-ingest/ingest.ts';
import { anomalyDetectHandler } from '../../workers/src/jobs/anomaly-detect.ts';
import { build, login, bearer } from '../helper.ts';

Decimal.set({ precision: 60, rounding: Decimal.ROUND_HALF_UP });
const ACME = { customerId: 'acme-corp', billingAccountId: '01A2B3-C4D5E6-F7A8B9' };
const today = billingToday();
const judged = addDays(today, -2);
const days = (from: string, to: string) => {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
};
// a USD fixing every day (units per 1 EUR)
const fixings = days(addDays(today, -60), today).map((d, i) => ({ currency: 'USD', rate_date: d, rate: `1.0${String(500 + ((i * 37) % 400)).padStart(3, '0')}` }));
const eurToUsd = (day: string) => new Decimal(fixings.find((f) => f.rate_date === day)!.rate).toDecimalPlaces(10);

const rows: CostRow[] = [];
for (const [i, day] of days(addDays(today, -45), addDays(today, -1)).entries()) {
  const base = { project_name: 'P', sku: 'sku', credits: '0', invoice_month: null, cost_type: 'usage', project_labels: {}, resource_labels: {}, usage_date: day };
  rows.push({ ...base, provider: 'gcp', provider_name: 'Google Cloud', project_id: 'gcp-p', service: 'BigQuery', currency: 'EUR', cost: day === judged ? '900.123456789' : `${100 + (i % 7)}.5` });
  rows.push({ ...base, provider: 'aws', provider_name: 'AWS', project_id: 'aws-p', service: 'Amazon EC2', currency: 'USD', cost: day === judged ? '700.987654321' : `${80 + (i % 5)}.25` });
}
const source = (p: string): BillingSource => ({ label: p, async *rows() { let n = 1; for (const r of rows.filter((x) => x.provider === p)) yield { line: ++n, row: r }; } });

t.test('stored anomalies follow the customer currency; the screen never mixes currencies', async (t) => {
  const app = await build(t);
  const { pool } = app.env;
  await saveRates(pool, 'ecb', fixings);
  for (const p of ['gcp', 'aws']) await runIngest({ pool, ...ACME, sourceKind: 'focus-file', fileName: `${p}.csv`, source: source(p) });
  const detect = anomalyDetectHandler({ pool, enqueue: app.producers.enqueue, publicUrl: 'http://cc.test' });
  const first = await detect({ data: { customer_id: 'acme-corp', date: judged } } as JobFor<'anomaly-detect'>);
  t.equal(first.notices, 1, 'the EUR findings are e-mailed once');

  const alice = bearer(await login(app, 'alice@acme.example'));
  const screen = async (minPerc: string, minValue: string) => {
    const res = await app.inject({
      method: 'GET',
      url: `/v1/anomalies/customer_id/acme-corp/billing_account_id/${ACME.billingAccountId}/date/${judged}/minimum_anomaly_threshold/${minPerc}/minimum_value_toggled_anomaly/${minValue}`,
      headers: alice,
    });
    t.equal(res.statusCode, 200, res.body.slice(0, 200));
    lastNotConverted = res.json().not_converted;
    return res.json().anomalies as { project_id: string; mean_cost: number; to_date_cost: number; currency: string }[];
  };
  let lastNotConverted: { currency: string; count: number; message: string }[] = [];
  const stored = (await pool.query<{ project_id: string; mean_cost: string; to_date_cost: string; project_mean_cost: string; project_to_date_cost: string; currency: string }>(
    `SELECT project_id, mean_cost::text, to_date_cost::text, project_mean_cost::text, project_to_date_cost::text, currency FROM anomaly WHERE customer_id = 'acme-corp' AND date = $1 ORDER BY project_id`,
    [judged],
  )).rows;
  t.same(stored.map((s) => [s.project_id, s.currency]), [['aws-p', 'EUR'], ['gcp-p', 'EUR']], 'judged in EUR');
  const inEur = await screen('0', '0');
  t.ok(inEur.length === 2 && inEur.every((a) => a.currency === 'EUR'));
  t.same(lastNotConverted, [], 'nothing left out');

  await pool.query(`UPDATE customer SET billing_currency = 'USD' WHERE customer_id = 'acme-corp'`);
  // an outside write reaches the api's access cache by NOTIFY, milliseconds later: published now, as the api's own writes are
  await app.access.publish();
  const r = eurToUsd(judged);
  const usd = (v: string) => new Decimal(v).times(r);
  const shown = await screen('0', '0');
  t.same(
    shown.map((a) => [a.project_id, a.currency, a.mean_cost, a.to_date_cost]),
    [...stored]
      .sort((a, b) => usd(b.to_date_cost).minus(usd(b.mean_cost)).comparedTo(usd(a.to_date_cost).minus(usd(a.mean_cost))))
      .map((s) => [s.project_id, 'USD', usd(s.mean_cost).toDecimalPlaces(2).toNumber(), usd(s.to_date_cost).toDecimalPlaces(2).toNumber()]),
    'every stored EUR anomaly shown in USD at the rate of its date, none in EUR',
  );

  // a minimum value between the EUR and the USD increase of the smaller anomaly: it qualifies in USD only
  const small = stored.reduce((a, b) => (new Decimal(a.to_date_cost).minus(a.mean_cost).lt(new Decimal(b.to_date_cost).minus(b.mean_cost)) ? a : b));
  const eurDelta = new Decimal(small.to_date_cost).minus(small.mean_cost);
  const between = eurDelta.plus(usd(small.to_date_cost).minus(usd(small.mean_cost)).minus(eurDelta).div(2)).toDecimalPlaces(2);
  t.ok(r.gt(1), 'the test rate makes USD figures larger');
  t.ok((await screen('0', between.toString())).some((a) => a.project_id === small.project_id), 'the minimum value applies to the converted figures');

  // no rate for the anomaly's date: left out rather than shown in EUR
  await pool.query(`DELETE FROM fx_rate WHERE rate_date BETWEEN $1::date - 7 AND $1::date`, [judged]);
  t.same(await screen('0', '0'), [], 'no rate within 7 days: not shown in another currency');
  t.same(
    lastNotConverted,
    [{ currency: 'EUR', count: 2, message: `No EUR to USD rate within 7 days before ${judged}: 2 anomalies judged in EUR are not shown.` }],
    'and the answer says how many are left out, and which rate is missing',
  );
  // only the percentage threshold can hold an unconverted anomaly: above every rise here, none is counted
  const rises = stored.map((s) => new Decimal(s.to_date_cost).minus(s.mean_cost).times(100).div(s.mean_cost));
  const above = Decimal.max(...rises).plus(1).toFixed(0);
  t.same(await screen(above, '0'), []);
  t.same(lastNotConverted, [], `a ${above}% threshold: none of them would be shown anyway`);
  const mid = Decimal.min(...rises).plus(Decimal.max(...rises)).div(2).toDecimalPlaces(4);
  t.ok(Decimal.min(...rises).lt(mid) && mid.lt(Decimal.max(...rises)), 'the two rises differ');
  await screen(mid.toFixed(4), '999999');
  t.same(lastNotConverted.map((n) => [n.currency, n.count]), [['EUR', 1]], 'the minimum amount (in USD) cannot apply to EUR figures: the percentage alone counts');
  await saveRates(pool, 'ecb', fixings);

  // re-judged in USD: the EUR findings are replaced, not e-mailed again
  const again = await detect({ data: { customer_id: 'acme-corp', date: judged } } as JobFor<'anomaly-detect'>);
  t.equal(again.notices, 0, 'the same findings are not e-mailed twice');
  const after = (await pool.query(`SELECT project_id, currency, notified_at IS NOT NULL AS notified FROM anomaly WHERE customer_id = 'acme-corp' AND date = $1 ORDER BY project_id`, [judged])).rows;
  t.same(after, [{ project_id: 'aws-p', currency: 'USD', notified: true }, { project_id: 'gcp-p', currency: 'USD', notified: true }], 'stored in USD now, one currency');
  t.ok((await screen('0', '0')).every((a) => a.currency === 'USD'));
});
