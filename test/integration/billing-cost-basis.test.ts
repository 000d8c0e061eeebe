/**
 * Billed / Amortised, end to end on real PostgreSQL: a FOCUS file with an upfront commitment purchase
 * (ChargeCategory 'Purchase', EffectiveCost 0) and the usage it covers (BilledCost 0, EffectiveCost its share).
 * Billed shows the purchase as one spike on its day; amortised spreads it over the covered usage. Every figure of
 * the charts, the export, the alert evaluation and the anomaly detection is compared with a sum of the file's own
 * BilledCost / EffectiveCost made here with decimal.js. Two customers hold the same file: Globex judges alerts and
 * anomalies on amortised cost, Acme on billed (the default), and neither setting touches the other.
 */
import t from 'tap';
import Decimal from 'decimal.js';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Pool } from '@cc/shared/db/pool.ts';
import type { JobFor } from '@cc/shared/queues.ts';
import { addDays, billingToday } from '@cc/shared/time.ts';
import { ANOMALY_WINDOW_DAYS } from '@cc/shared/insights/anomaly-rule.ts';
import { listUnnotifiedAnomalies } from '@cc/shared/db/anomalies.ts';
import { focusCsvSource, NO_EFFECTIVE_COST_COLUMN, noEffectiveCostRows } from '../../workers/src/billing-ingest/formats/focus-csv.ts';
import { runIngest } from '../../workers/src/billing-ingest/ingest.ts';
import { alertEvaluateHandler } from '../../workers/src/jobs/alert-evaluate.ts';
import { anomalyDetectHandler } from '../../workers/src/jobs/anomaly-detect.ts';
import { anomalyNotice } from '../../workers/src/mail/templates/anomaly-notice.ts';
import { build, login, bearer } from '../helper.ts';

Decimal.set({ precision: 60, rounding: Decimal.ROUND_HALF_UP });

/** Judges amortised cost (set below). */
const GLOBEX = { customerId: 'globex', billingAccountId: '02B3C4-D5E6F7-A8B9C0' };
/** Judges billed cost (the default). */
const ACME = { customerId: 'acme-corp', billingAccountId: '01A2B3-C4D5E6-F7A8B9' };

const today = billingToday();
const yesterday = addDays(today, -1);
const FIRST = addDays(today, -40);
/** The day the one-year commitment is bought and paid upfront. */
const PURCHASE_DAY = addDays(today, -20);
const PURCHASE = '5530.123456789012';

const days = (from: string, to: string) => {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
};
/** A deterministic amount with 12 decimals around `base`. */
const amount = (base: number, seed: number) => `${base + ((seed * 7919) % 9)}.${String((seed * 104729) % 1e12).padStart(12, '0')}`;

interface FocusRow {
  day: string;
  category: 'Usage' | 'Purchase' | 'Credit';
  service: string;
  billed: string;
  effective: string;
  commitment: string;
}

// EC2 on demand before the purchase (~100 a day); from the purchase day on, EC2 runs on the commitment: billed 0,
// amortised ~50 a day, and ~400 on the last day (a rise only the amortised view has). S3 on demand every day.
const rows: FocusRow[] = [];
for (const [i, day] of days(FIRST, yesterday).entries()) {
  if (day < PURCHASE_DAY) rows.push({ day, category: 'Usage', service: 'Amazon EC2', billed: amount(100, i), effective: amount(100, i), commitment: '' });
  else rows.push({ day, category: 'Usage', service: 'Amazon EC2', billed: '0', effective: amount(day === yesterday ? 400 : 50, i), commitment: 'cd-1' });
  rows.push({ day, category: 'Usage', service: 'Amazon S3', billed: amount(10, i + 3), effective: amount(10, i + 3), commitment: '' });
}
rows.push({ day: PURCHASE_DAY, category: 'Purchase', service: 'Amazon EC2', billed: PURCHASE, effective: '0', commitment: 'cd-1' });
rows.push({ day: addDays(today, -10), category: 'Credit', service: 'Amazon S3', billed: '-12.500000000001', effective: '-12.500000000001', commitment: '' });

const HEADER = [
  'BilledCost', 'EffectiveCost', 'BillingCurrency', 'BillingPeriodStart', 'ChargeCategory', 'ChargeClass', 'ChargeFrequency', 'ChargePeriodStart',
  'CommitmentDiscountId', 'ProviderName', 'ServiceName', 'SubAccountId', 'SubAccountName',
];
const csvLine = (r: FocusRow) =>
  [r.billed, r.effective, 'USD', `${r.day.slice(0, 7)}-01T00:00:00Z`, r.category, '', r.category === 'Purchase' ? 'One-Time' : 'Usage-Based',
    `${r.day}T12:00:00Z`, r.commitment, 'Amazon Web Services', r.service, '111122223333', 'Production'].join(',');

type Basis = 'billed' | 'amortised';
/** The file's own figures, summed here: BilledCost for billed, EffectiveCost for amortised. */
const sum = (basis: Basis, keep: (r: FocusRow) => boolean) =>
  rows.filter(keep).reduce((s, r) => s.plus(basis === 'billed' ? r.billed : r.effective), new Decimal(0));
const money = (d: Decimal) => d.toDecimalPlaces(2).toFixed(2);
/** numeric(24,12) text as PostgreSQL prints it. */
const exact = (d: Decimal) => d.toFixed(12);

async function load(pool: Pool, dir: string) {
  const file = join(dir, 'aws-focus-commitment.csv');
  await writeFile(file, [HEADER.join(','), ...rows.map(csvLine)].join('\n') + '\n');
  // Both customers show figures in USD, the file's currency: no conversion between the two views.
  await pool.query(`UPDATE customer SET billing_currency = 'USD', anomaly_detection = true, billing_dashboard_type = 'Standard' WHERE customer_id IN ('globex', 'acme-corp')`);
  await pool.query(`UPDATE customer SET billing_cost_basis = 'amortised' WHERE customer_id = 'globex'`);
  const summaries = [];
  for (const c of [GLOBEX, ACME]) summaries.push(await runIngest({ pool, ...c, sourceKind: 'focus-file', fileName: 'aws-focus-commitment.csv', source: focusCsvSource(file) }));
  return summaries;
}

t.test('billed and amortised views of a FOCUS commitment purchase', async (t) => {
  const app = await build(t);
  const { pool } = app.env;
  const dir = await mkdtemp(join(tmpdir(), 'cc-basis-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const [summary] = await load(pool, dir);
  const alice = bearer(await login(app, 'alice@acme.example'));
  const post = (url: string, query: Record<string, string>, payload: object, c = GLOBEX) =>
    app.inject({ method: 'POST', url, query: { billing_account_id: c.billingAccountId, ...query }, payload, headers: alice });
  const from30 = addDays(today, -30);
  const in30 = (r: FocusRow) => r.day >= from30 && r.day <= yesterday;

  t.test('the ingest keeps both figures and says nothing is missing', async (t) => {
    t.same(summary.notes.filter((n) => /EffectiveCost/.test(n)), [], 'the file has EffectiveCost on every row');
    t.same(
      summary.totals.map((x) => [x.provider, x.spend, x.effective_cost]),
      [['aws', exact(sum('billed', () => true)), exact(sum('amortised', () => true))]],
      'billed and amortised totals of the batch',
    );
  });

  for (const basis of ['billed', 'amortised'] as const) {
    t.test(`30days by service on the ${basis} basis: every bar and the Spend Sum`, async (t) => {
      const query = { provider: 'aws', period: '30days', top: '0', ...(basis === 'amortised' ? { cost_basis: basis } : {}) };
      const res = await post('/v2/billing/aggregated/by_service/chart/globex', query, { services: [] });
      t.equal(res.statusCode, 200, res.body.slice(0, 300));
      const body = res.json();
      t.equal(body.cost_basis, basis, 'the answer says its basis');
      t.equal(body.summary.custom, money(sum(basis, in30)), 'Spend Sum of the period');
      t.equal(body.data.length, 30);
      for (const bar of body.data) t.equal(bar.total, money(sum(basis, (r) => r.day === bar.date)), `bar ${bar.date}`);
      const spike = body.data.find((b: { date: string }) => b.date === PURCHASE_DAY);
      if (basis === 'billed') t.ok(Number(spike.total) > Number(PURCHASE), 'billed: the whole purchase on its day');
      else t.ok(Number(spike.total) < 200, 'amortised: no spike, the purchase is spread over the covered usage');
      const ec2 = body.series.find((s: { key: string }) => s.key === 'Amazon EC2');
      t.ok(ec2, 'EC2 series');
    });
  }

  for (const basis of ['billed', 'amortised'] as const) {
    t.test(`12months by service on the ${basis} basis: month bars from the monthly rollup`, async (t) => {
      const res = await post('/v2/billing/aggregated/by_service/chart/globex', { provider: 'aws', period: '12months', top: '0', cost_basis: basis }, { services: [] });
      t.equal(res.statusCode, 200, res.body.slice(0, 300));
      const body = res.json();
      t.equal(body.data.length, 12);
      for (const bar of body.data) t.equal(bar.total, money(sum(basis, (r) => r.day.slice(0, 7) === bar.date && r.day <= yesterday)), `month ${bar.date}`);
      const previous = `${addDays(`${today.slice(0, 7)}-01`, -1).slice(0, 7)}`;
      t.equal(body.summary.previous_month, money(sum(basis, (r) => r.day.slice(0, 7) === previous)), 'previous month');
      t.equal(body.summary.month_to_date, money(sum(basis, (r) => r.day.slice(0, 7) === today.slice(0, 7) && r.day < today)), 'month to date');
    });
  }

  t.test('the basis is part of the chart cache key', async (t) => {
    const q = { provider: 'aws', period: '7days', top: '0' };
    const billed = await post('/v2/billing/aggregated/by_service/chart/globex', q, { services: [] });
    const again = await post('/v2/billing/aggregated/by_service/chart/globex', { ...q, cost_basis: 'billed' }, { services: [] });
    t.equal(again.headers['x-cache'], 'hit', 'billed is the default: the same answer');
    const amortised = await post('/v2/billing/aggregated/by_service/chart/globex', { ...q, cost_basis: 'amortised' }, { services: [] });
    t.equal(amortised.headers['x-cache'], 'miss', 'amortised is never served from the billed answer');
    t.not(amortised.json().summary.custom, billed.json().summary.custom);
  });

  t.test('a bad basis is a 400 with a sentence', async (t) => {
    const res = await post('/v2/billing/aggregated/by_service/chart/globex', { provider: 'aws', cost_basis: 'cash' }, { services: [] });
    t.equal(res.statusCode, 400);
    t.same(res.json(), { detail: 'cost_basis must be one of billed, amortised' });
  });

  t.test('export rows carry the basis and its figures', async (t) => {
    for (const basis of ['billed', 'amortised'] as const) {
      const res = await post('/v2/billing/details/chart/globex/export', { provider: 'aws', period: '30days', cost_basis: basis }, { services: [] });
      t.equal(res.statusCode, 200);
      const body = res.json();
      const h = (name: string) => body.headers.indexOf(name);
      t.ok(h('Cost Basis') >= 0, 'a Cost Basis column');
      t.same([...new Set(body.rows.map((r: string[]) => r[h('Cost Basis')]))], [basis === 'billed' ? 'Billed' : 'Amortised']);
      for (const r of body.rows) {
        t.equal(r[h('Spend')], money(sum(basis, (x) => x.day === r[h('Date')] && x.service === r[h('Service')])), `${basis} ${r[h('Date')]} ${r[h('Service')]}`);
      }
      const label = await post('/v2/billing/project/labels/details/chart/globex/export', { period: '30days', cost_basis: basis }, { project_label: 'team' });
      t.equal(label.statusCode, 200);
      t.equal(label.json().headers.at(-1), 'Cost Basis');
    }
  });

  t.test('alert quotas are judged on the customer basis, per customer', async (t) => {
    const mtd = (basis: Basis) => sum(basis, (r) => r.day >= `${PURCHASE_DAY.slice(0, 7)}-01` && r.day <= PURCHASE_DAY);
    const quota = mtd('amortised').plus(1);
    t.ok(mtd('billed').gt(quota) && mtd('amortised').lt(quota), 'the quota lies between the two views');
    const alert = async (customer: string, q: Decimal) =>
      (await pool.query<{ id: string }>(`INSERT INTO alert (customer_id, group_by, quota) VALUES ($1, 'service', $2) RETURNING id`, [customer, q.toFixed(12)])).rows[0].id;
    const globexAbove = await alert('globex', quota);
    const globexBelow = await alert('globex', mtd('amortised').minus('0.01'));
    const acmeAbove = await alert('acme-corp', quota);
    const evaluate = alertEvaluateHandler({ pool, enqueue: app.producers.enqueue, publicUrl: 'http://cc.test' });
    for (const customer of ['globex', 'acme-corp']) await evaluate({ data: { customer_id: customer, day: PURCHASE_DAY } } as JobFor<'alert-evaluate'>);
    const { rows: notices } = await pool.query<{ alert_id: string; spend: string; cost_basis: string }>(
      `SELECT alert_id::text, spend::text, cost_basis FROM alert_notice WHERE month = $1 ORDER BY alert_id`,
      [PURCHASE_DAY.slice(0, 7)],
    );
    t.same(
      notices,
      [
        { alert_id: globexBelow, spend: exact(mtd('amortised')), cost_basis: 'amortised' },
        { alert_id: acmeAbove, spend: exact(mtd('billed')), cost_basis: 'billed' },
      ].sort((a, b) => Number(a.alert_id) - Number(b.alert_id)),
      'Globex: amortised month-to-date stays under the quota the purchase would cross; Acme: billed crosses it',
    );
    t.notOk(notices.some((n) => n.alert_id === globexAbove));
    const listed = await app.inject({ method: 'GET', url: '/v1/alerts/globex/notices/', headers: alice });
    t.same(listed.json().map((n: { cost_basis: string }) => n.cost_basis), ['amortised'], 'the notice says its basis');
  });

  t.test('anomalies are judged on the customer basis, per customer', async (t) => {
    const detect = anomalyDetectHandler({ pool, enqueue: app.producers.enqueue, publicUrl: 'http://cc.test' });
    const anomalies = async (c: typeof GLOBEX, date: string) => {
      const res = await app.inject({
        method: 'GET',
        url: `/v1/anomalies/customer_id/${c.customerId}/billing_account_id/${c.billingAccountId}/date/${date}/minimum_anomaly_threshold/0/minimum_value_toggled_anomaly/0`,
        headers: alice,
      });
      t.equal(res.statusCode, 200, `anomalies of ${c.customerId} on ${date}`);
      return res.json() as { cost_basis: string; anomalies: { service: string; to_date_cost: number; mean_cost: number }[] };
    };
    /** The series' trailing mean by the rule (over the days since it was first seen in the window), computed here. */
    const mean = (basis: Basis, service: string, date: string) => {
      const inWindow = (r: FocusRow) => r.service === service && r.day >= addDays(date, -ANOMALY_WINDOW_DAYS) && r.day < date;
      const first = rows.filter(inWindow).map((r) => r.day).sort()[0];
      const span = (Date.parse(date) - Date.parse(first)) / 86_400_000;
      return sum(basis, inWindow).div(span);
    };
    for (const date of [PURCHASE_DAY, yesterday]) {
      for (const customerId of ['globex', 'acme-corp']) await detect({ data: { customer_id: customerId, date } } as JobFor<'anomaly-detect'>);
    }
    const ec2 = (a: Awaited<ReturnType<typeof anomalies>>) => a.anomalies.find((x) => x.service === 'Amazon EC2');

    const acmePurchase = await anomalies(ACME, PURCHASE_DAY);
    t.equal(acmePurchase.cost_basis, 'billed');
    t.match(ec2(acmePurchase), {
      service: 'Amazon EC2',
      to_date_cost: Number(money(sum('billed', (r) => r.day === PURCHASE_DAY && r.service === 'Amazon EC2'))),
      mean_cost: Number(money(mean('billed', 'Amazon EC2', PURCHASE_DAY))),
    }, 'billed: the purchase day is an EC2 anomaly');
    const globexPurchase = await anomalies(GLOBEX, PURCHASE_DAY);
    t.equal(globexPurchase.cost_basis, 'amortised');
    t.notOk(ec2(globexPurchase), 'amortised: the purchase is no anomaly');

    const globexLast = await anomalies(GLOBEX, yesterday);
    t.match(ec2(globexLast), {
      service: 'Amazon EC2',
      to_date_cost: Number(money(sum('amortised', (r) => r.day === yesterday && r.service === 'Amazon EC2'))),
      mean_cost: Number(money(mean('amortised', 'Amazon EC2', yesterday))),
    }, 'amortised: the covered usage rising on the last day is an anomaly');
    t.notOk(ec2(await anomalies(ACME, yesterday)), 'billed: the covered usage costs nothing, no anomaly');

    // The notice states the basis the day was judged on, as the alert notice does (read back as the mail job reads it).
    await pool.query(`UPDATE anomaly SET notified_at = NULL WHERE date = $1`, [yesterday]);
    const pending = await listUnnotifiedAnomalies(pool, yesterday, 'globex');
    t.ok(pending.length > 0 && pending.every((a) => a.cost_basis === 'amortised'), 'judged on amortised cost');
    const mail = anomalyNotice('Globex', GLOBEX.billingAccountId, yesterday, pending, 'http://cc.test');
    t.match(mail.text, /^Cost basis: Amortised$/m);
    t.match(mail.html, '<p>Cost basis: Amortised</p>');
    t.ok((await listUnnotifiedAnomalies(pool, yesterday, 'acme-corp')).every((a) => a.cost_basis === 'billed'));
  });
});

t.test('a FOCUS file without EffectiveCost: amortised = billed, and the ingest says so', async (t) => {
  const app = await build(t);
  const { pool } = app.env;
  const dir = await mkdtemp(join(tmpdir(), 'cc-basis-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const header = ['BilledCost', 'BillingCurrency', 'ChargeCategory', 'ChargePeriodStart', 'ProviderName', 'ServiceName'];
  const noColumn = join(dir, 'no-effective.csv');
  await writeFile(noColumn, [header.join(','), '553000.000000000001,USD,Purchase,2025-05-01T12:00:00Z,AWS,Amazon EC2', '10.5,USD,Usage,2025-05-02T12:00:00Z,AWS,Amazon EC2'].join('\n') + '\n');
  const s1 = await runIngest({ pool, ...GLOBEX, sourceKind: 'focus-file', fileName: 'no-effective.csv', source: focusCsvSource(noColumn) });
  t.ok(s1.notes.includes(NO_EFFECTIVE_COST_COLUMN), s1.notes.join('; '));
  t.same(s1.totals.map((x) => [x.spend, x.effective_cost]), [['553010.500000000001', '553010.500000000001']]);

  const someEmpty = join(dir, 'some-empty.csv');
  await writeFile(
    someEmpty,
    [`${header.join(',')},EffectiveCost`, '100,USD,Purchase,2025-06-01T12:00:00Z,AWS,Amazon EC2,0', '7,USD,Usage,2025-06-02T12:00:00Z,AWS,Amazon EC2,'].join('\n') + '\n',
  );
  const s2 = await runIngest({ pool, ...GLOBEX, sourceKind: 'focus-file', fileName: 'some-empty.csv', source: focusCsvSource(someEmpty) });
  t.ok(s2.notes.includes(noEffectiveCostRows(1)), s2.notes.join('; '));
  t.same(s2.totals.map((x) => [x.spend, x.effective_cost]), [['107.000000000000', '7.000000000000']], 'the purchase amortised away, the empty row as billed');
  const { rows: daily } = await pool.query(
    `SELECT usage_date::text AS day, (cost + credits)::text AS billed, (cost + credits + amortisation)::text AS amortised
       FROM cost_daily WHERE billing_account_id = $1 AND usage_date >= '2025-06-01' ORDER BY usage_date`,
    [GLOBEX.billingAccountId],
  );
  t.same(daily, [
    { day: '2025-06-01', billed: '100.000000000000', amortised: '0.000000000000' },
    { day: '2025-06-02', billed: '7.000000000000', amortised: '7.000000000000' },
  ]);
  const { rows: monthly } = await pool.query(
    `SELECT (sum(cost) + sum(credits) + sum(amortisation))::text AS amortised FROM cost_monthly WHERE billing_account_id = $1 AND month = '2025-06-01'`,
    [GLOBEX.billingAccountId],
  );
  t.same(monthly, [{ amortised: '7.000000000000' }], 'the monthly rollup carries the amortisation too');

  const bad = join(dir, 'bad.csv');
  await writeFile(bad, [`${header.join(',')},EffectiveCost`, '7,USD,Usage,2025-07-02T12:00:00Z,AWS,Amazon EC2,seven'].join('\n') + '\n');
  await t.rejects(runIngest({ pool, ...GLOBEX, sourceKind: 'focus-file', fileName: 'bad.csv', source: focusCsvSource(bad) }), { errors: [{ line: 2, reason: "EffectiveCost 'seven' is not a number" }] });
});
