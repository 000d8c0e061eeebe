/**
 * 'Reconcile with invoice' on real PostgreSQL: an EUR customer with GCP lines in EUR, AWS lines in USD (plus an AWS
 * correction file) and Azure lines in GBP, spread over an invoice month, the month before and the month after. Every
 * line of the answer is compared with an exact computation made here with decimal.js from the test's own lines:
 * each line × the rate of its own usage day (the latest fixing at most 7 days before, cross rate through EUR rounded
 * to 10 decimals), summed, rounded half away from zero to 2 decimals only at the end.
 */
import t from 'tap';
import Decimal from 'decimal.js';
import type { BillingSource, CostRow } from '@cc/shared/ports/billing-source.ts';
import { saveRates } from '@cc/shared/db/fx-rates.ts';
import { addDays } from '@cc/shared/time.ts';
import { RECONCILE_LABELS } from '@cc/shared/schemas/billing-reconcile.ts';
import { runIngest } from '../../workers/src/billing-ingest/ingest.ts';
import { build, login, bearer } from '../helper.ts';

Decimal.set({ precision: 60, rounding: Decimal.ROUND_HALF_UP });

const ACME = { customerId: 'acme-corp', billingAccountId: '01A2B3-C4D5E6-F7A8B9' };
const MONTH = '2026-10';
const INVOICE = '202610';

const days = (from: string, to: string) => {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
};
const weekday = (d: string) => new Date(`${d}T00:00:00Z`).getUTCDay();
const isBusinessDay = (d: string) => weekday(d) !== 0 && weekday(d) !== 6;

// ECB-style fixings on business days; GBP is not quoted from Oct 8 to Oct 23, so GBP usage of Oct 17..25 has none.
const GBP_GAP = { from: '2026-10-08', to: '2026-10-23' };
const fixings: { currency: string; rate_date: string; rate: string }[] = [];
for (const [i, d] of days('2026-08-20', '2026-11-30').entries()) {
  if (!isBusinessDay(d)) continue;
  fixings.push({ currency: 'USD', rate_date: d, rate: `1.${String(600 + ((i * 37) % 400)).padStart(4, '0')}` });
  if (d < GBP_GAP.from || d > GBP_GAP.to) fixings.push({ currency: 'GBP', rate_date: d, rate: `0.8${String(3000 + ((i * 53) % 900)).padStart(4, '0')}` });
}
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
const amount = (seed: number) => `${((seed * 7919) % 900) + 10}.${String((seed * 104729) % 1e12).padStart(12, '0')}`;

interface Line {
  provider: 'gcp' | 'aws' | 'azure';
  day: string;
  cost: string;
  credits: string;
  currency: string;
  invoice: string | null;
  costType: string;
  correction: boolean;
}
const lines: Line[] = [];
let seed = 1;
const add = (l: Omit<Line, 'cost' | 'credits' | 'costType' | 'correction'> & Partial<Line>) =>
  lines.push({ cost: amount(seed++), credits: '0', costType: 'usage', correction: false, ...l });
const invoiceOf = (day: string) => day.slice(0, 4) + day.slice(5, 7);

// GCP in EUR: September and October usage on their own invoices, with credits; the last days of September arrive
// late on October's invoice; October 31 is billed in November; a tax line and an adjustment of an August day.
for (const day of days('2026-09-20', '2026-10-31')) {
  const late = day >= '2026-09-29' && day <= '2026-09-30';
  const later = day === '2026-10-31';
  add({ provider: 'gcp', day, currency: 'EUR', invoice: late ? INVOICE : later ? '202611' : invoiceOf(day), credits: `-${amount(seed + 1000).slice(0, 4)}` });
}
add({ provider: 'gcp', day: '2026-10-31', currency: 'EUR', invoice: INVOICE, costType: 'tax', cost: '412.330000000001' });
add({ provider: 'gcp', day: '2026-08-28', currency: 'EUR', invoice: INVOICE, costType: 'adjustment', cost: '-57.125' });
// AWS in USD: October on its invoice except two days not on any invoice yet; September 30 arrives late.
for (const day of days('2026-09-25', '2026-10-31')) {
  const none = day === '2026-10-12' || day === '2026-10-13';
  add({ provider: 'aws', day, currency: 'USD', invoice: none ? null : day === '2026-09-30' ? INVOICE : invoiceOf(day) });
}
// Azure in GBP: part of October without a rate (the gap), so it is shown unconverted and never added.
for (const day of days('2026-10-01', '2026-10-31')) add({ provider: 'azure', day, currency: 'GBP', invoice: INVOICE });
// An AWS correction file on October's invoice: moves spend on an August day and on an October day.
const corrections: Line[] = [
  { provider: 'aws', day: '2026-08-31', cost: '-300.5', credits: '0', currency: 'USD', invoice: INVOICE, costType: 'usage', correction: true },
  { provider: 'aws', day: '2026-10-05', cost: '120.25', credits: '0', currency: 'USD', invoice: INVOICE, costType: 'usage', correction: true },
];

const rowOf = (l: Line): CostRow => ({
  provider: l.provider,
  provider_name: { gcp: 'Google Cloud', aws: 'AWS', azure: 'Microsoft' }[l.provider],
  usage_date: l.day,
  project_id: `${l.provider}-p`,
  project_name: `${l.provider}-p`,
  service: 'Compute',
  sku: 'sku',
  cost: l.cost,
  credits: l.credits,
  currency: l.currency,
  invoice_month: l.invoice,
  cost_type: l.costType,
  project_labels: {},
  resource_labels: {},
  resource_id: `r-${l.day}-${l.costType}`,
  correction: l.correction,
});
const source = (label: string, ls: Line[]): BillingSource => ({
  label,
  async *rows() {
    let n = 1;
    for (const l of ls) yield { line: ++n, row: rowOf(l) };
  },
});

/** The expected answer, computed from the lines alone. */
function expected(provider: string | null, display = 'EUR') {
  const all = [...lines, ...corrections].filter((l) => provider === null || l.provider === provider);
  const sum = (keep: (l: Line) => boolean, part: (l: Line) => Decimal = (l) => new Decimal(l.cost).plus(l.credits)) => {
    let s = new Decimal(0);
    for (const l of all.filter(keep)) {
      const r = rate(l.currency, display, l.day);
      if (r !== null) s = s.plus(part(l).times(r));
    }
    return s;
  };
  const on = (l: Line) => l.invoice === INVOICE;
  const inMonth = (l: Line) => l.day.startsWith(MONTH);
  const fix = (l: Line) => l.correction || l.costType === 'adjustment';
  const invoiceTotal = sum(on);
  const unconverted = new Map<string, Decimal>();
  for (const l of all.filter((x) => on(x) || inMonth(x))) {
    if (rate(l.currency, display, l.day) === null) unconverted.set(l.currency, (unconverted.get(l.currency) ?? new Decimal(0)).plus(l.cost).plus(l.credits));
  }
  return {
    bridge: [
      sum(inMonth),
      sum((l) => inMonth(l) && l.invoice !== null && l.invoice > INVOICE).neg(),
      sum((l) => inMonth(l) && l.invoice !== null && l.invoice < INVOICE).neg(),
      sum((l) => inMonth(l) && l.invoice === null).neg(),
      sum((l) => on(l) && !inMonth(l) && !fix(l)),
      sum((l) => on(l) && !inMonth(l) && fix(l)),
      invoiceTotal,
    ].map(money),
    invoice: [
      sum((l) => on(l) && !fix(l) && l.costType !== 'tax', (l) => new Decimal(l.cost)),
      sum((l) => on(l) && !fix(l), (l) => new Decimal(l.credits)),
      sum((l) => on(l) && fix(l)),
      sum((l) => on(l) && !fix(l) && l.costType === 'tax', (l) => new Decimal(l.cost)),
      invoiceTotal,
    ].map(money),
    unconverted: Object.fromEntries([...unconverted].map(([c, v]) => [c, money(v)])),
  };
}

t.test('reconcile with invoice: every line is the exact converted sum, and the bridge closes', async (t) => {
  const app = await build(t);
  const { pool } = app.env;
  await saveRates(pool, 'ecb', fixings);
  // GCP through the windowed path (a BigQuery export, straight into cost_line), the others as files: both record where
  // their lines lie (cost_line_extent), which is where the invoice month's late and early lines are looked for
  for (const p of ['gcp', 'aws', 'azure'] as const) {
    const kind = p === 'gcp' ? 'bigquery' : 'focus-file';
    await runIngest({ pool, ...ACME, sourceKind: kind, fileName: `${p}.csv`, source: source(p, lines.filter((l) => l.provider === p)) });
  }
  const fix = await runIngest({ pool, ...ACME, sourceKind: 'focus-file', fileName: 'aws-correction.csv', fileHash: 'c1', source: source('fix', corrections) });
  t.equal(fix.mode, 'append', 'the correction file adds');

  const alice = bearer(await login(app, 'alice@acme.example'));
  const get = (query: Record<string, string>, headers = alice, customer = 'acme-corp') =>
    app.inject({ method: 'GET', url: `/v2/billing/reconcile/${customer}`, query: { billing_account_id: ACME.billingAccountId, ...query }, headers });

  t.test('the data has what the view explains', async (t) => {
    const e = expected(null);
    t.not(e.bridge[1], '0.00', 'usage billed later');
    t.not(e.bridge[3], '0.00', 'usage without an invoice month');
    t.not(e.bridge[4], '0.00', 'late-arriving usage');
    t.not(e.bridge[5], '0.00', 'corrections of earlier months');
    t.ok(e.unconverted.GBP, 'GBP without a rate');
  });

  for (const provider of ['all', 'gcp', 'aws', 'azure']) {
    t.test(`provider ${provider}`, async (t) => {
      const res = await get({ month: MONTH, provider });
      t.equal(res.statusCode, 200, res.body.slice(0, 300));
      const body = res.json();
      const want = expected(provider === 'all' ? null : provider);
      t.equal(body.currency, 'EUR');
      t.equal(body.month, MONTH);
      t.same(
        body.bridge.map((l: { label: string }) => l.label),
        ['usage_total', 'billed_later', 'billed_earlier', 'not_invoiced', 'late_usage', 'late_corrections', 'invoice_total'].map((k) => RECONCILE_LABELS[k as keyof typeof RECONCILE_LABELS]),
      );
      t.same(body.bridge.map((l: { amount: string }) => l.amount), want.bridge, 'bridge from usage days to the invoice');
      t.same(body.invoice.map((l: { amount: string }) => l.amount), want.invoice, 'what the invoice is made of');
      t.equal(body.unexplained, '0.00');
      t.same(Object.fromEntries(body.conversion.unconverted.map((u: { currency: string; amount: string }) => [u.currency, u.amount])), want.unconverted, 'unconverted per currency');
      for (const u of body.conversion.unconverted) t.match(u.message, /No GBP to EUR rate within 7 days/);
      t.ok(body.months.includes('2026-11') && body.months.includes('2026-08'), 'the picker offers every month with lines');
    });
  }

  t.test('in another display currency every line is converted again', async (t) => {
    await pool.query(`UPDATE customer SET billing_currency = 'USD' WHERE customer_id = 'acme-corp'`);
    await app.access.publish(); // a write outside the api: the access epoch moves before the next request (NOTIFY may lag)
    const body = (await get({ month: MONTH })).json();
    t.equal(body.currency, 'USD');
    t.same(body.bridge.map((l: { amount: string }) => l.amount), expected(null, 'USD').bridge);
    await pool.query(`UPDATE customer SET billing_currency = 'EUR' WHERE customer_id = 'acme-corp'`);
    await app.access.publish(); // a write outside the api: the access epoch moves before the next request (NOTIFY may lag)
  });

  t.test('default month: the newest month with lines', async (t) => {
    t.equal((await get({})).json().month, '2026-11');
  });

  t.test('refusals', async (t) => {
    const bad = await get({ month: '2026-13' });
    t.equal(bad.statusCode, 400);
    t.same(bad.json(), { detail: "Month '2026-13' is not a month written as YYYY-MM (e.g. 2026-10)" });
    const badProvider = await get({ month: MONTH, provider: 'A W S' });
    t.equal(badProvider.statusCode, 400);
    t.same(badProvider.json(), { detail: "Provider 'A W S' is not a provider id (e.g. gcp, aws, azure or all)" });
    t.equal((await get({ month: MONTH, billing_account_id: '02B3C4-D5E6F7-A8B9C0' })).statusCode, 404, "another customer's account");
    t.equal((await get({ month: MONTH }, {} as typeof alice)).statusCode, 401);
    const bob = bearer(await login(app, 'bob@initech.example'));
    t.equal((await get({ month: MONTH }, bob)).statusCode, 404, 'a customer the caller may not see');
    const victor = bearer(await login(app, 'victor@acme.example'));
    const v = await get({ month: MONTH }, victor);
    t.equal(v.statusCode, 403);
    t.match(v.json().detail, /covers the whole billing account/);
  });
});
