/**
 * The Project-Labels-with-Project export carries the conversion of every row, as the service export does: original
 * amount and currency, the rate with its fixing date and source, and the amount in the display currency. An EUR
 * customer with GCP lines in EUR, AWS lines in USD and Azure lines in GBP (GBP without a rate for a while); every
 * row is checked against an exact computation made here with decimal.js from the test's own lines.
 */
import t from 'tap';
import Decimal from 'decimal.js';
import type { BillingSource, CostRow } from '@cc/shared/ports/billing-source.ts';
import { saveRates } from '@cc/shared/db/fx-rates.ts';
import { addDays, billingToday } from '@cc/shared/time.ts';
import { runIngest } from '../../workers/src/billing-ingest/ingest.ts';
import { build, login, bearer } from '../helper.ts';

Decimal.set({ precision: 60, rounding: Decimal.ROUND_HALF_UP });
const ACME = { customerId: 'acme-corp', billingAccountId: '01A2B3-C4D5E6-F7A8B9' };
const today = billingToday();
const yesterday = addDays(today, -1);
const days = (from: string, to: string) => {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
};
const weekday = (d: string) => new Date(`${d}T00:00:00Z`).getUTCDay();
const isBusinessDay = (d: string) => weekday(d) !== 0 && weekday(d) !== 6;
const GBP_GAP = { from: addDays(today, -20), to: addDays(today, -8) };
const fixings: { currency: string; rate_date: string; rate: string }[] = [];
for (const [i, d] of days(addDays(today, -50), today).entries()) {
  if (!isBusinessDay(d)) continue;
  fixings.push({ currency: 'USD', rate_date: d, rate: `1.${String(600 + ((i * 37) % 400)).padStart(4, '0')}` });
  if (d < GBP_GAP.from || d > GBP_GAP.to) fixings.push({ currency: 'GBP', rate_date: d, rate: `0.8${String(3000 + ((i * 53) % 900)).padStart(4, '0')}` });
}
function eurLeg(c: string, day: string): { rate: Decimal; date: string } | null {
  if (c === 'EUR') return { rate: new Decimal(1), date: day };
  for (let back = 0; back <= 7; back++) {
    const f = fixings.find((x) => x.currency === c && x.rate_date === addDays(day, -back));
    if (f) return { rate: new Decimal(f.rate), date: f.rate_date };
  }
  return null;
}
const toEur = (c: string, day: string) => {
  const leg = eurLeg(c, day);
  return leg && { rate: new Decimal(1).div(leg.rate).toDecimalPlaces(10), date: leg.date };
};
const money = (d: Decimal) => d.toDecimalPlaces(2).toFixed(2);
const amount = (seed: number) => `${((seed * 7919) % 900) + 10}.${String((seed * 104729) % 1e12).padStart(12, '0')}`;

interface Line { provider: string; day: string; project: string; team: string | null; cost: string; currency: string }
const lines: Line[] = [];
for (const [i, day] of days(addDays(today, -35), yesterday).entries()) {
  lines.push({ provider: 'gcp', day, project: 'gcp-web', team: 'web', cost: amount(i * 10 + 1), currency: 'EUR' });
  lines.push({ provider: 'gcp', day, project: 'gcp-misc', team: null, cost: amount(i * 10 + 2), currency: 'EUR' });
  lines.push({ provider: 'aws', day, project: 'aws-1', team: 'ops', cost: amount(i * 10 + 3), currency: 'USD' });
  lines.push({ provider: 'azure', day, project: 'sub-1', team: 'ops', cost: amount(i * 10 + 4), currency: 'GBP' });
}
const rowOf = (l: Line): CostRow => ({
  provider: l.provider,
  provider_name: { gcp: 'Google Cloud', aws: 'AWS', azure: 'Microsoft' }[l.provider] ?? l.provider,
  usage_date: l.day,
  project_id: l.project,
  project_name: l.project.toUpperCase(),
  service: 'Compute',
  sku: 'sku',
  cost: l.cost,
  credits: '0',
  currency: l.currency,
  invoice_month: null,
  cost_type: 'usage',
  project_labels: l.team === null ? {} : { team: l.team },
  resource_labels: {},
});
const source = (p: string): BillingSource => ({
  label: p,
  async *rows() {
    let n = 1;
    for (const l of lines.filter((x) => x.provider === p)) yield { line: ++n, row: rowOf(l) };
  },
});

t.test('project-label export: original amount and currency, rate, rate date, rate source, converted amount', async (t) => {
  const app = await build(t);
  const { pool } = app.env;
  await saveRates(pool, 'ecb', fixings);
  for (const p of ['gcp', 'aws', 'azure']) await runIngest({ pool, ...ACME, sourceKind: 'focus-file', fileName: `${p}.csv`, source: source(p) });
  const alice = bearer(await login(app, 'alice@acme.example'));
  const res = await app.inject({
    method: 'POST',
    url: '/v2/billing/project/labels/details/chart/acme-corp/export',
    query: { billing_account_id: ACME.billingAccountId, period: '30days' },
    payload: { project_label: 'team' },
    headers: alice,
  });
  t.equal(res.statusCode, 200, res.body.slice(0, 300));
  const body = res.json();
  t.same(body.headers, ['Date', 'Project Label', 'Label Value', 'Project ID', 'Project Name', 'Spend', 'Currency', 'Original Spend', 'Original Currency', 'Rate', 'Rate Date', 'Rate Source', 'Cost Basis']);
  const from = addDays(today, -30);
  const inRange = lines.filter((l) => l.day >= from && l.day <= yesterday);
  t.equal(body.rows.length, inRange.length, 'one row per project, day and currency here');
  let total = new Decimal(0);
  let unconverted = 0;
  for (const r of body.rows as string[][]) {
    const [date, key, value, project, name, spend, currency, original, originalCurrency, rate, rateDate, rateSource] = r;
    const line = inRange.find((l) => l.day === date && l.project === project)!;
    t.ok(line, `${date} ${project}`);
    t.equal(key, 'team');
    t.equal(value, line.team ?? '', 'label value (blank: without the key)');
    t.equal(name, line.project.toUpperCase());
    t.equal(currency, 'EUR');
    t.equal(original, money(new Decimal(line.cost)));
    t.equal(originalCurrency, line.currency);
    const want = toEur(line.currency, line.day);
    if (want === null) {
      t.same([spend, rate, rateDate, rateSource], ['', '', '', ''], `no ${line.currency} rate on ${line.day}: blank, never added`);
      unconverted++;
      continue;
    }
    t.equal(new Decimal(rate).toString(), want.rate.toString(), `rate of ${line.currency} on ${line.day}`);
    t.equal(spend, money(new Decimal(line.cost).times(want.rate)));
    if (line.currency === 'EUR') t.same([rate, rateDate, rateSource], ['1', '', ''], 'the display currency has rate 1 and no fixing');
    else t.same([rateDate, rateSource], [want.date, 'ecb'], 'the fixing date and source');
    total = total.plus(new Decimal(line.cost).times(want.rate));
  }
  t.ok(unconverted > 0, 'some GBP rows had no rate');
  const chart = await app.inject({
    method: 'POST',
    url: '/v2/billing/project/labels/details/chart/acme-corp',
    query: { billing_account_id: ACME.billingAccountId, period: '30days', top: '0' },
    payload: { project_label: 'team' },
    headers: alice,
  });
  t.equal(chart.json().summary.custom, money(total), 'the converted rows add up to the chart total');
});
