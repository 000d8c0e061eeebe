/**
 * The all-customers spend overview against each customer's own billing dashboard: month to date and forecast are
 * the dashboard's figures, and the provider-currency column and total are the dashboard's daily figures converted
 * here, independently, at each day's rate (latest fixing at most 7 days before, cross rate through EUR rounded to
 * 10 decimals), summed and rounded only at the end.
 */
import t from 'tap';
import Decimal from 'decimal.js';
import type { BillingSource, CostRow } from '@cc/shared/ports/billing-source.ts';
import type { SpendAnswer } from '@cc/shared/schemas/operations.ts';
import { saveRates } from '@cc/shared/db/fx-rates.ts';
import { addDays, addMonths, billingToday } from '@cc/shared/time.ts';
import { runIngest } from '../../workers/src/billing-ingest/ingest.ts';
import { build, login, bearer } from '../helper.ts';

Decimal.set({ precision: 60, rounding: Decimal.ROUND_HALF_UP });

const today = billingToday();
const yesterday = addDays(today, -1);
const monthStart = `${today.slice(0, 8)}01`;
const FIRST = addDays(`${addMonths(today, -1).slice(0, 8)}01`, -30);
const days = (from: string, to: string) => {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
};
const isBusinessDay = (d: string) => ![0, 6].includes(new Date(`${d}T00:00:00Z`).getUTCDay());

// per 1 EUR, business days only (weekends take Friday's)
const fixings: { currency: string; rate_date: string; rate: string }[] = [];
for (const [i, d] of days(addDays(FIRST, -10), today).entries()) {
  if (!isBusinessDay(d)) continue;
  fixings.push({ currency: 'USD', rate_date: d, rate: `1.0${String(500 + ((i * 37) % 400)).padStart(3, '0')}` });
  fixings.push({ currency: 'GBP', rate_date: d, rate: `0.8${String(3000 + ((i * 53) % 900)).padStart(4, '0')}` });
}
function eurLeg(c: string, day: string): Decimal {
  if (c === 'EUR') return new Decimal(1);
  for (let back = 0; back <= 7; back++) {
    const f = fixings.find((x) => x.currency === c && x.rate_date === addDays(day, -back));
    if (f) return new Decimal(f.rate);
  }
  throw new Error(`no ${c} rate for ${day}`);
}
const rate = (from: string, to: string, day: string) => (from === to ? new Decimal(1) : eurLeg(to, day).div(eurLeg(from, day)).toDecimalPlaces(10));

const CUSTOMERS = [
  { id: 'acme-corp', account: '01A2B3-C4D5E6-F7A8B9', currency: 'EUR' },
  { id: 'globex', account: '02B3C4-D5E6F7-A8B9C0', currency: 'USD' },
  { id: 'initech', account: 'INITECH-ACCOUNT', currency: 'GBP' },
];

function source(c: (typeof CUSTOMERS)[number], n: number): BillingSource {
  const row = (day: string, i: number): CostRow => ({
    provider: 'gcp',
    provider_name: 'Google Cloud',
    usage_date: day,
    project_id: `p${i % 2}`,
    project_name: `p${i % 2}`,
    service: i % 2 ? 'BigQuery' : 'Compute Engine',
    sku: 'sku',
    // two decimals: the dashboard's daily bars are then exact and the test converts them, not rounded figures
    cost: `${((i * 7919 + n * 131) % 900) + 10}.${String((i * 37 + n) % 100).padStart(2, '0')}`,
    credits: '0',
    currency: c.currency,
    invoice_month: null,
    cost_type: 'usage',
    project_labels: {},
    resource_labels: {},
  });
  return {
    label: `test ${c.id}`,
    async *rows() {
      let line = 1;
      for (const [i, day] of days(FIRST, yesterday).entries()) for (const k of [0, 1]) yield { line: ++line, row: row(day, i * 2 + k) };
    },
  };
}

t.test('every customer’s figures as its own dashboard, and the provider-currency total', async (t) => {
  const app = await build(t);
  const pool = app.env.pool;
  await pool.query(`UPDATE customer SET billing_account_ids = '{INITECH-ACCOUNT}' WHERE customer_id = 'initech'`);
  await saveRates(pool, 'ecb', fixings);
  for (const [n, c] of CUSTOMERS.entries()) {
    await runIngest({ pool, customerId: c.id, billingAccountId: c.account, sourceKind: 'focus-file', fileName: `${c.id}.csv`, source: source(c, n) });
  }
  await app.access.publish();
  const [admin, alice, victor] = await Promise.all(['admin@commandcenter.local', 'alice@acme.example', 'victor@acme.example'].map((u) => login(app, u)));

  for (const [who, token] of [['alice (customer)', alice], ['victor (viewer)', victor]] as const) {
    const res = await app.inject({ method: 'GET', url: '/v1/operations/spend', headers: bearer(token) });
    t.same([res.statusCode, res.json()], [403, { detail: 'Admin only' }], `${who} is refused the overview`);
  }
  const res = await app.inject({ method: 'GET', url: '/v1/operations/spend', headers: bearer(admin) });
  t.equal(res.statusCode, 200);
  const answer = res.json() as SpendAnswer;
  t.equal(answer.provider_currency, 'EUR', 'PROVIDER_CURRENCY defaults to EUR');
  t.same(answer.unconverted, []);

  let total = new Decimal(0);
  for (const c of CUSTOMERS) {
    const dash = await app.inject({
      method: 'POST',
      url: `/v2/billing/aggregated/by_service/chart/${c.id}`,
      headers: bearer(admin),
      query: { provider: 'all', period: 'CustomizedPeriod', start_date: monthStart, end_date: today, top: '0' },
      payload: { services: [] },
    });
    t.equal(dash.statusCode, 200, `${c.id}'s dashboard`);
    const body = dash.json() as { summary: { month_to_date: string }; months: { month: string; forecasted_monthly_spend: string }[]; data: { date: string; total: string }[]; currency: string };
    const row = answer.rows.find((r) => r.customer_id === c.id)!;
    t.equal(row.currency, body.currency, `${c.id} in its own currency`);
    t.equal(row.month_to_date, body.summary.month_to_date, `${c.id}: month to date as its dashboard`);
    t.equal(row.forecast, body.months.find((m) => m.month === today.slice(0, 7))!.forecasted_monthly_spend, `${c.id}: forecast as its dashboard`);
    const converted = body.data.filter((b) => b.date < today).reduce((s, b) => s.plus(new Decimal(b.total).times(rate(c.currency, 'EUR', b.date))), new Decimal(0));
    t.equal(row.provider_month_to_date, converted.toFixed(2), `${c.id}: each day of its dashboard converted into EUR at that day's rate`);
    total = total.plus(converted);
  }
  t.equal(answer.total.month_to_date, total.toFixed(2), 'the total row is the sum of the converted dashboards');
  t.not(answer.total.month_to_date, CUSTOMERS.reduce((s, c) => s.plus(answer.rows.find((r) => r.customer_id === c.id)!.month_to_date), new Decimal(0)).toFixed(2), 'not the own-currency figures added up');

  const globex = answer.rows.find((r) => r.customer_id === 'globex')!;
  t.equal(globex.last_usage_date, yesterday);
  const lastMonth = addMonths(yesterday, -1);
  if (today.slice(8) !== '01') {
    const prev = await app.inject({
      method: 'POST',
      url: '/v2/billing/aggregated/by_service/chart/globex',
      headers: bearer(admin),
      query: { provider: 'all', period: 'CustomizedPeriod', start_date: `${lastMonth.slice(0, 8)}01`, end_date: lastMonth, top: '0' },
      payload: { services: [] },
    });
    t.equal(globex.last_month_same_day, (prev.json() as { summary: { custom: string } }).summary.custom, 'last month at the same day as the dashboard’s sum of those days');
  }
});
