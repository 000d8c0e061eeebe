/**
 * Currency conversion, end to end on real PostgreSQL: an EUR customer (acme-corp) holding GCP spend in EUR and FOCUS
 * spend in USD (aws) and GBP (azure). Every figure the api, the alert evaluation and the anomaly detection produce is
 * compared with an exact computation made here with decimal.js: each line × the rate of its own usage day (the
 * latest fixing at most 7 days before, cross rates through EUR rounded to 10 decimals), summed, rounded half away
 * from zero to 2 decimals only at the end.
 */
import t from 'tap';
import Decimal from 'decimal.js';
import type { Pool } from '@cc/shared/db/pool.ts';
import type { BillingSource, CostRow } from '@cc/shared/ports/billing-source.ts';
import type { JobFor } from '@cc/shared/queues.ts';
import { saveRates } from '@cc/shared/db/fx-rates.ts';
import { addDays, billingToday } from '@cc/shared/time.ts';
import { runIngest } from '../../workers/src/billing-ingest/ingest.ts';
import { alertEvaluateHandler } from '../../workers/src/jobs/alert-evaluate.ts';
import { anomalyDetectHandler } from '../../workers/src/jobs/anomaly-detect.ts';
import { build, login, bearer } from '../helper.ts';

Decimal.set({ precision: 60, rounding: Decimal.ROUND_HALF_UP });

const ACME = { customerId: 'acme-corp', billingAccountId: '01A2B3-C4D5E6-F7A8B9' };
const today = billingToday();
const yesterday = addDays(today, -1);
const FIRST = addDays(today, -45);

const weekday = (d: string) => new Date(`${d}T00:00:00Z`).getUTCDay();
const isBusinessDay = (d: string) => weekday(d) !== 0 && weekday(d) !== 6;
const days = (from: string, to: string) => {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
};

/** A deterministic 12-decimal amount. */
const amount = (seed: number) => `${(seed * 7919) % 900 + 10}.${String((seed * 104729) % 1e12).padStart(12, '0')}`;

// ECB-style fixings per 1 EUR on business days; one holiday without any fixing; GBP not quoted for two weeks, so
// GBP spend of the days more than 7 days after its last fixing has no rate.
const HOLIDAY = days(addDays(today, -20), today).find(isBusinessDay)!;
const GBP_GAP = { from: addDays(today, -38), to: addDays(today, -25) };
const fixings: { currency: string; rate_date: string; rate: string }[] = [];
for (const [i, d] of days(addDays(FIRST, -10), today).entries()) {
  if (!isBusinessDay(d) || d === HOLIDAY) continue;
  fixings.push({ currency: 'USD', rate_date: d, rate: `1.${String(600 + ((i * 37) % 400)).padStart(4, '0')}` });
  if (d < GBP_GAP.from || d > GBP_GAP.to) fixings.push({ currency: 'GBP', rate_date: d, rate: `0.8${String(3000 + ((i * 53) % 900)).padStart(4, '0')}` });
  fixings.push({ currency: 'DKK', rate_date: d, rate: `7.4${String(500 + ((i * 11) % 99)).padStart(3, '0')}` });
}

/** Units of `c` per 1 EUR for a usage day by the rule, computed independently; null = no fixing within 7 days. */
function eurLeg(c: string, day: string): Decimal | null {
  if (c === 'EUR') return new Decimal(1);
  for (let back = 0; back <= 7; back++) {
    const f = fixings.find((x) => x.currency === c && x.rate_date === addDays(day, -back));
    if (f) return new Decimal(f.rate);
  }
  return null;
}
function rate(from: string, to: string, day: string): Decimal | null {
  if (from === to) return new Decimal(1);
  const [f, tt] = [eurLeg(from, day), eurLeg(to, day)];
  return f && tt ? tt.div(f).toDecimalPlaces(10) : null;
}
const money = (d: Decimal) => d.toDecimalPlaces(2).toFixed(2);

interface Line {
  provider: string;
  day: string;
  project: string;
  service: string;
  cost: string;
  currency: string;
}

const lines: Line[] = [];
for (const [i, day] of days(FIRST, yesterday).entries()) {
  for (const [k, service] of ['BigQuery', 'Compute Engine'].entries()) {
    lines.push({ provider: 'gcp', day, project: `gcp-p${k}`, service, cost: amount(i * 10 + k), currency: 'EUR' });
  }
  // a spike on the judged anomaly day, so the USD series is surely a candidate
  const ec2 = day === addDays(today, -2) ? '5000.123456789012' : amount(i * 10 + 5);
  lines.push({ provider: 'aws', day, project: 'aws-111', service: 'Amazon EC2', cost: ec2, currency: 'USD' });
  lines.push({ provider: 'azure', day, project: 'sub-1', service: 'Virtual Machines', cost: amount(i * 10 + 7), currency: 'GBP' });
}

const rowOf = (l: Line): CostRow => ({
  provider: l.provider,
  provider_name: l.provider === 'gcp' ? 'Google Cloud' : l.provider === 'aws' ? 'AWS' : 'Microsoft',
  usage_date: l.day,
  project_id: l.project,
  project_name: l.project,
  service: l.service,
  sku: 'sku',
  cost: l.cost,
  credits: '0',
  currency: l.currency,
  invoice_month: null,
  cost_type: 'usage',
  project_labels: { team: l.provider },
  resource_labels: {},
});

function source(provider: string): BillingSource {
  return {
    label: `test ${provider}`,
    async *rows() {
      let line = 1;
      for (const l of lines.filter((x) => x.provider === provider)) yield { line: ++line, row: rowOf(l) };
    },
  };
}

/** The exact expectation: converted sum of the lines passing `keep`, and the unconverted original per currency. */
function expected(display: string, keep: (l: Line) => boolean) {
  let total = new Decimal(0);
  const unconverted = new Map<string, Decimal>();
  for (const l of lines.filter(keep)) {
    const r = rate(l.currency, display, l.day);
    if (r === null) unconverted.set(l.currency, (unconverted.get(l.currency) ?? new Decimal(0)).plus(l.cost));
    else total = total.plus(new Decimal(l.cost).times(r));
  }
  return { total, unconverted };
}

async function load(pool: Pool) {
  await saveRates(pool, 'ecb', fixings);
  for (const p of ['gcp', 'aws', 'azure']) {
    await runIngest({ pool, ...ACME, sourceKind: 'focus-file', fileName: `${p}.csv`, source: source(p) });
  }
}

t.test('an EUR customer with EUR, USD and GBP spend: every figure is the exact converted sum', async (t) => {
  const app = await build(t);
  const { pool } = app.env;
  await load(pool);
  const alice = bearer(await login(app, 'alice@acme.example'));
  const chart = (url: string, query: Record<string, string>, payload: object) =>
    app.inject({ method: 'POST', url, query: { billing_account_id: ACME.billingAccountId, ...query }, payload, headers: alice });
  const from30 = addDays(today, -30);
  const in30 = (l: Line) => l.day >= from30 && l.day <= yesterday;

  t.test('the rule itself: the test data has a holiday, a weekend fallback and a GBP gap', async (t) => {
    t.ok(lines.some((l) => l.currency === 'GBP' && rate('GBP', 'EUR', l.day) === null), 'some GBP days have no rate');
    t.ok(rate('USD', 'EUR', HOLIDAY), 'the holiday takes the previous business day');
    t.notOk(fixings.some((f) => f.rate_date === HOLIDAY));
  });

  for (const provider of ['all', 'aws', 'gcp', 'azure']) {
    t.test(`30days by service, provider ${provider}: bars, total and unconverted part`, async (t) => {
      const res = await chart('/v2/billing/aggregated/by_service/chart/acme-corp', { provider, period: '30days', top: '0' }, { services: [] });
      t.equal(res.statusCode, 200, res.body.slice(0, 300));
      const body = res.json();
      t.equal(body.currency, 'EUR');
      const ofProvider = (l: Line) => provider === 'all' || l.provider === provider;
      const want = expected('EUR', (l) => in30(l) && ofProvider(l));
      t.equal(body.summary.custom, money(want.total), 'Spend Sum of the period');
      for (const bar of body.data) {
        t.equal(bar.total, money(expected('EUR', (l) => l.day === bar.date && ofProvider(l)).total), `bar ${bar.date}`);
      }
      const shown = Object.fromEntries(body.conversion.unconverted.map((u: { currency: string; amount: string }) => [u.currency, u.amount]));
      t.same(shown, Object.fromEntries([...want.unconverted].map(([c, v]) => [c, money(v)])), 'unconverted part per currency');
      for (const u of body.conversion.unconverted) t.match(u.message, new RegExp(`No ${u.currency} to EUR rate`));
      if (provider === 'aws') t.same(body.conversion.converted.map((c: { sources: string[] }) => c.sources), [['ecb']], 'rate source');
      t.equal(body.conversion.demo_rates, false);
    });
  }

  t.test('Spend Sum month to date and previous month; discount rows on the whole account', async (t) => {
    await pool.query(`UPDATE customer SET billing_dashboard_type = 'Set Discount', billing_dashboard_set_discount = 10 WHERE customer_id = 'acme-corp'`);
    await app.access.publish(); // a write outside the api: the access epoch moves before the next request (NOTIFY may lag)
    const monthStart = `${today.slice(0, 7)}-01`;
    const prevStart = `${addDays(monthStart, -1).slice(0, 7)}-01`;
    const mtd = (l: Line) => l.day >= monthStart && l.day < today;
    const prev = (l: Line) => l.day >= prevStart && l.day < monthStart;
    const res = await chart('/v2/billing/aggregated/by_service/chart/acme-corp', { provider: 'all', period: '30days', top: '0' }, { services: ['Amazon EC2'] });
    const body = res.json();
    const ec2 = (l: Line) => l.service === 'Amazon EC2';
    t.equal(body.summary.month_to_date, money(expected('EUR', (l) => mtd(l) && ec2(l)).total), 'month to date keeps the chart filter');
    t.equal(body.summary.previous_month, money(expected('EUR', (l) => prev(l) && ec2(l)).total), 'previous month keeps the chart filter');
    const row = body.months.find((m: { month: string }) => m.month === prevStart.slice(0, 7));
    const whole = expected('EUR', prev).total;
    t.equal(row.monthly_spend, money(whole), 'the discount row is the whole account, not the service filter');
    t.equal(row.discount, '10');
    t.equal(row.discounted_spend, money(whole.minus(whole.times(10).div(100).toDecimalPlaces(24))), 'Set Discount of the whole month');
  });

  t.test('export: per row original amount and currency, rate, its date and source, converted spend', async (t) => {
    const res = await chart('/v2/billing/details/chart/acme-corp/export', { provider: 'all', period: '30days' }, { services: [] });
    t.equal(res.statusCode, 200);
    const body = res.json();
    const h = (name: string) => body.headers.indexOf(name);
    let checked = 0;
    let sum = new Decimal(0);
    for (const r of body.rows) {
      const line = lines.find((l) => l.day === r[h('Date')] && l.project === r[h('Project ID')] && l.service === r[h('Service')])!;
      t.equal(r[h('Original Currency')], line.currency);
      t.equal(r[h('Original Spend')], money(new Decimal(line.cost)));
      t.equal(r[h('Currency')], 'EUR');
      const want = rate(line.currency, 'EUR', line.day);
      if (want === null) {
        t.equal(r[h('Spend')], '', 'no rate: no converted spend');
        continue;
      }
      t.equal(new Decimal(r[h('Rate')]).toString(), want.toString(), `rate of ${line.currency} on ${line.day}`);
      t.equal(r[h('Spend')], money(new Decimal(line.cost).times(want)));
      if (line.currency !== 'EUR') {
        t.equal(r[h('Rate Source')], 'ecb');
        t.ok(r[h('Rate Date')] <= line.day && r[h('Rate Date')] >= addDays(line.day, -7), 'fixing within 7 days');
      }
      sum = sum.plus(new Decimal(line.cost).times(want));
      checked++;
    }
    t.equal(checked + body.rows.filter((r: string[]) => r[h('Spend')] === '').length, lines.filter(in30).length, 'one row per line');
    t.equal(money(sum), money(expected('EUR', in30).total), 'the rows add up to the chart total');
  });

  t.test('alert evaluation compares the converted month-to-date spend', async (t) => {
    const monthStart = `${yesterday.slice(0, 7)}-01`;
    const mtd = expected('EUR', (l) => l.day >= monthStart && l.day <= yesterday).total;
    await pool.query(`INSERT INTO alert (customer_id, group_by, label_key, label_value, quota, created_by) VALUES ('acme-corp', 'service', '', '', 1, 'alice@acme.example')`);
    await alertEvaluateHandler({ pool, enqueue: app.producers.enqueue, publicUrl: 'http://cc.test' })({ data: { customer_id: 'acme-corp', day: yesterday } } as JobFor<'alert-evaluate'>);
    const { rows } = await pool.query(`SELECT round(spend, 2)::text AS spend, currency FROM alert_notice WHERE customer_id = 'acme-corp' AND month = $1`, [yesterday.slice(0, 7)]);
    t.same(rows, [{ spend: money(mtd), currency: 'EUR' }]);
  });

  t.test('anomaly detection judges series in EUR', async (t) => {
    const date = addDays(today, -2);
    await anomalyDetectHandler({ pool, enqueue: app.producers.enqueue, publicUrl: 'http://cc.test' })({ data: { customer_id: 'acme-corp', date } } as JobFor<'anomaly-detect'>);
    // every series with a stored candidate: its day's spend is the converted figure
    const { rows } = await pool.query<{ project_id: string; service: string; to_date_cost: string; currency: string }>(
      `SELECT project_id, service, round(to_date_cost, 2)::text AS to_date_cost, currency FROM anomaly WHERE customer_id = 'acme-corp' AND date = $1`,
      [date],
    );
    t.ok(rows.some((r) => r.project_id === 'aws-111'), 'the USD spike is a candidate');
    for (const r of rows) {
      t.equal(r.currency, 'EUR');
      t.equal(r.to_date_cost, money(expected('EUR', (l) => l.day === date && l.project === r.project_id && l.service === r.service).total), `${r.project_id} ${r.service}`);
    }
    const { rows: run } = await pool.query(`SELECT judged_series FROM anomaly_run WHERE customer_id = 'acme-corp' AND date = $1`, [date]);
    t.equal(run[0].judged_series, 4, 'EUR, USD and GBP series are all judged');
  });

  t.test('changing the customer currency converts every figure, it does not relabel', async (t) => {
    const before = (await chart('/v2/billing/aggregated/by_service/chart/acme-corp', { provider: 'all', period: '30days', top: '0' }, { services: [] })).json();
    await pool.query(`UPDATE customer SET billing_currency = 'DKK' WHERE customer_id = 'acme-corp'`);
    await app.access.publish(); // a write outside the api: the access epoch moves before the next request (NOTIFY may lag)
    const res = await chart('/v2/billing/aggregated/by_service/chart/acme-corp', { provider: 'all', period: '30days', top: '0' }, { services: [] });
    const body = res.json();
    t.equal(body.currency, 'DKK');
    const want = expected('DKK', in30);
    t.equal(body.summary.custom, money(want.total), 'DKK total = every line converted into DKK');
    t.not(body.summary.custom, before.summary.custom, 'not the EUR figure relabelled');
    t.same(body.conversion.converted.map((c: { currency: string }) => c.currency).sort(), ['EUR', 'GBP', 'USD']);
  });
});
