/**
 * 'Reconcile with invoice' in Chromium: an EUR customer with GCP lines in EUR and AWS lines in USD over September
 * and October 2026 (late-arriving usage, usage billed in November, an AWS correction file). Reached from the billing
 * dashboard's toolbar; the October tables show figures equal to the sums converted here (decimal.js, each line at its
 * own day's rate) and a zero unexplained difference; screenshots at 360, 800 and 1440 px.
 */
import t from 'tap';
import Decimal from 'decimal.js';
import type { Response } from 'playwright-core';
import { addDays } from '@cc/shared/time.ts';
import { saveRates } from '@cc/shared/db/fx-rates.ts';
import type { CostRow } from '@cc/shared/ports/billing-source.ts';
import { RECONCILE_LABELS } from '@cc/shared/schemas/billing-reconcile.ts';
import { runIngest } from '../../workers/src/billing-ingest/ingest.ts';
import { startProduct, signIn, SCREENSHOT_DIR } from './harness.ts';

Decimal.set({ precision: 60, rounding: Decimal.ROUND_HALF_UP });
const ACME = { customerId: 'acme-corp', billingAccountId: '01A2B3-C4D5E6-F7A8B9' };

const days = (from: string, to: string) => {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
};
// a USD fixing every day (units per 1 EUR), so EUR per USD = 1 / rate rounded to 10 decimals
const fixings = days('2026-09-01', '2026-11-30').map((d, i) => ({ currency: 'USD', rate_date: d, rate: `1.${String(1000 + ((i * 37) % 900))}` }));
const usdToEur = (day: string) => new Decimal(1).div(fixings.find((f) => f.rate_date === day)!.rate).toDecimalPlaces(10);

interface Line { provider: 'gcp' | 'aws'; day: string; cost: string; invoice: string; correction?: boolean }
const lines: Line[] = [];
for (const [i, day] of days('2026-09-25', '2026-10-31').entries()) {
  const invoice = day <= '2026-09-28' ? '202609' : day === '2026-10-31' ? '202611' : '202610';
  lines.push({ provider: 'gcp', day, cost: `${100 + i}.123456789012`, invoice });
  lines.push({ provider: 'aws', day, cost: `${200 + 3 * i}.987654321098`, invoice: day < '2026-10-01' && day !== '2026-09-30' ? '202609' : '202610' });
}
const corrections: Line[] = [{ provider: 'aws', day: '2026-09-15', cost: '-123.45', invoice: '202610', correction: true }];

const row = (l: Line): CostRow => ({
  provider: l.provider,
  provider_name: l.provider === 'gcp' ? 'Google Cloud' : 'AWS',
  usage_date: l.day,
  project_id: l.provider === 'gcp' ? 'acme-web' : '111122223333',
  project_name: l.provider === 'gcp' ? 'Web' : 'Production',
  service: l.provider === 'gcp' ? 'Compute Engine' : 'Amazon EC2',
  sku: 'sku',
  cost: l.cost,
  credits: '0',
  currency: l.provider === 'gcp' ? 'EUR' : 'USD',
  invoice_month: l.invoice,
  cost_type: 'usage',
  project_labels: {},
  resource_labels: {},
  correction: l.correction ?? false,
});
const eur = (l: Line) => (l.provider === 'gcp' ? new Decimal(l.cost) : new Decimal(l.cost).times(usdToEur(l.day)));
const sum = (keep: (l: Line) => boolean) => [...lines, ...corrections].filter(keep).reduce((s, l) => s.plus(eur(l)), new Decimal(0));
const shown = (d: Decimal) => `${d.toDecimalPlaces(2).toFixed(2).replace('-', '').replace(/\B(?=(\d{3})+(?!\d))/g, ',')} EUR`;
const signed = (d: Decimal) => (d.toDecimalPlaces(2).isNegative() ? `-${shown(d)}` : shown(d));

t.test('Reconcile with invoice: reached from the dashboard, every figure the converted sum', async (t) => {
  const { base, browser, app } = await startProduct(t);
  const { pool } = app.env;
  await saveRates(pool, 'ecb', fixings);
  for (const provider of ['gcp', 'aws'] as const) {
    const ls = lines.filter((l) => l.provider === provider);
    await runIngest({ pool, ...ACME, sourceKind: 'focus-file', fileName: `${provider}.csv`, source: { label: provider, async *rows() { let n = 1; for (const l of ls) yield { line: ++n, row: row(l) }; } } });
  }
  await runIngest({ pool, ...ACME, sourceKind: 'focus-file', fileName: 'fix.csv', fileHash: 'fix', source: { label: 'fix', async *rows() { yield { line: 2, row: row(corrections[0]) }; } } });

  const inOct = (l: Line) => l.day.startsWith('2026-10');
  const onOct = (l: Line) => l.invoice === '202610';
  const want: Record<string, string> = {
    usage_total: signed(sum(inOct)),
    billed_later: signed(sum((l) => inOct(l) && l.invoice > '202610').neg()),
    late_usage: signed(sum((l) => onOct(l) && !inOct(l) && !l.correction)),
    late_corrections: signed(sum((l) => onOct(l) && !inOct(l) && l.correction === true)),
    invoice_total: signed(sum(onOct)),
  };

  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
  t.teardown(() => context.close());
  const page = await context.newPage();
  await signIn(page, base, 'alice@acme.example');
  await page.getByRole('button', { name: 'Reconcile with invoice' }).click();
  await page.getByRole('heading', { name: 'Reconcile with invoice', level: 1 }).waitFor();
  const october = page.waitForResponse((r: Response) => r.url().includes('/v2/billing/reconcile/acme-corp?') && r.url().includes('month=2026-10'), { timeout: 60_000 });
  await page.getByLabel('Invoice month').selectOption('2026-10');
  t.equal((await october).status(), 200);
  const bridge = page.getByRole('table', { name: 'From usage in October 2026 to the invoice' });
  await bridge.waitFor();
  for (const [key, amount] of Object.entries(want)) {
    const cell = bridge.getByRole('row', { name: RECONCILE_LABELS[key as keyof typeof RECONCILE_LABELS] }).getByRole('cell');
    t.equal(await cell.innerText(), amount, RECONCILE_LABELS[key as keyof typeof RECONCILE_LABELS]);
  }
  const invoice = page.getByRole('table', { name: 'Invoice October 2026, line by line' });
  t.equal(await invoice.getByRole('row', { name: RECONCILE_LABELS.invoice_total }).getByRole('cell').innerText(), want.invoice_total, 'both tables end on the invoice total');
  t.match(await page.getByTestId('reconcile-unexplained').innerText(), /Difference unexplained: 0\.00 EUR/);
  t.match(await page.getByTestId('currency-conversion').innerText(), /USD = [\d,.]+ EUR \(ECB reference rates\)/, 'names the rate source');

  for (const width of [360, 800, 1440]) {
    await page.setViewportSize({ width, height: 1000 });
    await page.waitForTimeout(400);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/billing-reconcile-${width}.png`, fullPage: true });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    t.equal(overflow, 0, `no sideways scrolling at ${width} px`);
  }
});
