/**
 * System Health figures in the customer's display currency: an EUR customer with EUR and USD spend (and
 * GBP spend without a rate). Project spend, means, month to date and alert spend equal an exact computation made here
 * with decimal.js (each rollup row × the rate of its own usage day); the GBP spend is reported apart, never added;
 * changing the customer's currency converts the figures.
 */
import t from 'tap';
import Decimal from 'decimal.js';
import { testEnv } from '../helper.ts';
import { healthFigures } from '@cc/shared/db/monitoring-figures.ts';
import { saveRates } from '@cc/shared/db/fx-rates.ts';
import { addDays } from '@cc/shared/time.ts';
import type { BillingSource, CostRow } from '@cc/shared/ports/billing-source.ts';
import { runIngest } from '../../workers/src/billing-ingest/ingest.ts';

Decimal.set({ precision: 60, rounding: Decimal.ROUND_HALF_UP });
const TODAY = '2026-03-15';
const C = 'fx-company';
const ACC = 'FX-A';
const days = (from: string, to: string) => {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
};
const fixings = days('2026-01-20', TODAY)
  .filter((d) => ![0, 6].includes(new Date(`${d}T00:00:00Z`).getUTCDay()))
  .map((d, i) => ({ currency: 'USD', rate_date: d, rate: `1.0${String(500 + ((i * 37) % 400)).padStart(3, '0')}` }));
function usdLeg(day: string): Decimal {
  for (let back = 0; back <= 7; back++) {
    const f = fixings.find((x) => x.rate_date === addDays(day, -back));
    if (f) return new Decimal(f.rate);
  }
  throw new Error('no rate');
}
/** Rate converting 1 `from` into `to` on a day, as the rule says (cross through EUR, 10 decimals). */
const rate = (from: string, to: string, day: string) => {
  const leg = (c: string) => (c === 'EUR' ? new Decimal(1) : usdLeg(day));
  return from === to ? new Decimal(1) : leg(to).div(leg(from)).toDecimalPlaces(10);
};
const money = (d: Decimal) => d.toDecimalPlaces(2).toFixed(2);

interface Line { day: string; project: string; cost: string; currency: string }
const lines: Line[] = [];
for (const [i, day] of days('2026-02-01', TODAY).entries()) {
  lines.push({ day, project: 'p-eu', cost: `${(i * 7919) % 300}.${String((i * 104729) % 1e6).padStart(6, '0')}`, currency: 'EUR' });
  lines.push({ day, project: 'p-us', cost: `${(i * 6007) % 500}.${String((i * 7717) % 1e6).padStart(6, '0')}`, currency: 'USD' });
}
lines.push({ day: addDays(TODAY, -3), project: 'p-uk', cost: '77.125', currency: 'GBP' });

const rowOf = (l: Line): CostRow => ({
  provider: 'gcp', provider_name: 'Google Cloud', usage_date: l.day, project_id: l.project, project_name: l.project.toUpperCase(),
  service: 'Compute', sku: 'sku', cost: l.cost, credits: '0', currency: l.currency, invoice_month: null, cost_type: 'usage',
  project_labels: {}, resource_labels: {},
});
const source: BillingSource = { label: 'lines', async *rows() { let n = 1; for (const l of lines) yield { line: ++n, row: rowOf(l) }; } };

/** The figures of one project, computed from the lines: yesterday, mean of the 28 days before, month to date (to yesterday). */
function expected(project: string, display: string) {
  const conv = (l: Line) => new Decimal(l.cost).times(rate(l.currency, display, l.day));
  const mine = lines.filter((l) => l.project === project);
  const yesterday = addDays(TODAY, -1);
  const hist = mine.filter((l) => l.day >= addDays(yesterday, -28) && l.day <= addDays(yesterday, -1));
  const first = hist.map((l) => l.day).sort()[0];
  const histSum = hist.reduce((s, l) => s.plus(conv(l)), new Decimal(0));
  const span = (Date.parse(yesterday) - Date.parse(first)) / 86_400_000;
  return {
    yesterday_spend: money(mine.filter((l) => l.day === yesterday).reduce((s, l) => s.plus(conv(l)), new Decimal(0))),
    mean_28d: money(histSum.div(span)),
    month_to_date: money(mine.filter((l) => l.day >= '2026-03-01' && l.day < TODAY).reduce((s, l) => s.plus(conv(l)), new Decimal(0))),
  };
}

t.test('System Health figures are converted into the display currency', async (t) => {
  const { pool } = await testEnv(t, { seed: false });
  await pool.query(`INSERT INTO customer (customer_id, customer_name, billing_account_ids, billing_currency) VALUES ($1, 'FX Co', $2, 'EUR')`, [C, [ACC]]);
  await saveRates(pool, 'ecb', fixings);
  await runIngest({ pool, customerId: C, billingAccountId: ACC, sourceKind: 'focus-file', fileName: 'x.csv', source });
  await pool.query(`INSERT INTO alert (customer_id, group_by, quota) VALUES ($1, 'service', 100)`, [C]);

  for (const display of ['EUR', 'USD']) {
    await pool.query(`UPDATE customer SET billing_currency = $2 WHERE customer_id = $1`, [C, display]);
    const f = await healthFigures(pool, C, TODAY);
    t.equal(f.currency, display);
    t.same(f.projects.map((p) => p.project_id), ['p-eu', 'p-us'], 'GBP spend without a rate is in no figure');
    for (const p of f.projects) {
      t.equal(p.currency, display, `${p.project_id} in ${display}`);
      t.same({ yesterday_spend: p.yesterday_spend, mean_28d: p.mean_28d, month_to_date: p.month_to_date }, expected(p.project_id, display), `${p.project_id} in ${display}`);
    }
    const mtd = lines
      .filter((l) => l.currency !== 'GBP' && l.day >= '2026-03-01' && l.day <= TODAY)
      .reduce((s, l) => s.plus(new Decimal(l.cost).times(rate(l.currency, display, l.day))), new Decimal(0));
    t.same(f.alerts.map((a) => [a.month_to_date, a.currency]), [[money(mtd), display]], `alert spend in ${display}`);
    t.same(f.unconverted.map((u) => [u.currency, u.amount, u.missing_from]), [['GBP', '77.13', addDays(TODAY, -3)]]);
    t.match(f.unconverted[0].message, new RegExp(`^No GBP to ${display} rate within 7 days`));
  }
});
