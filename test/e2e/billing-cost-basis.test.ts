/**
 * Billed / Amortised in Chromium: AWS spend from a FOCUS file with an upfront commitment purchase and the
 * usage it covers. Choosing Amortised in the settings drawer turns the Spend Sum and the bars from the billed figures
 * (the purchase as one spike) into the amortised ones (EffectiveCost), both summed here from the file's own columns.
 * Screenshots: test-results/screenshots/billing-cost-basis-*.png.
 */
import t from 'tap';
import Decimal from 'decimal.js';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page, Response } from 'playwright-core';
import { addDays, billingToday } from '@cc/shared/time.ts';
import { focusCsvSource } from '../../workers/src/billing-ingest/formats/focus-csv.ts';
import { runIngest } from '../../workers/src/billing-ingest/ingest.ts';
import { startProduct, signIn, spendSumShowing, SCREENSHOT_DIR } from './harness.ts';

Decimal.set({ precision: 60, rounding: Decimal.ROUND_HALF_UP });
const ACME = { customerId: 'acme-corp', billingAccountId: '01A2B3-C4D5E6-F7A8B9' };
const today = billingToday();
const PURCHASE_DAY = addDays(today, -12);

interface Line {
  day: string;
  category: 'Usage' | 'Purchase';
  billed: string;
  effective: string;
}
// EC2 on demand, then on a commitment bought upfront on PURCHASE_DAY: billed 0, amortised its daily share.
const lines: Line[] = [];
for (let i = 1; i <= 20; i++) {
  const day = addDays(today, -i);
  const share = `${40 + i}.123456789012`;
  lines.push(day < PURCHASE_DAY ? { day, category: 'Usage', billed: `${90 + i}.5`, effective: `${90 + i}.5` } : { day, category: 'Usage', billed: '0', effective: share });
}
lines.push({ day: PURCHASE_DAY, category: 'Purchase', billed: '5530.987654321098', effective: '0' });

const total = (basis: 'billed' | 'effective') => lines.reduce((s, l) => s.plus(l[basis]), new Decimal(0));
/** As the dashboard writes money: English grouping, 2 decimals. */
const shown = (d: Decimal) => `${d.toDecimalPlaces(2).toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ',')} EUR`;

const chartAnswer = (page: Page, test: (url: string) => boolean) =>
  page.waitForResponse((r: Response) => r.request().method() === 'POST' && r.url().includes('/v2/billing/aggregated/by_service/chart/acme-corp?') && test(r.url()), {
    timeout: 60_000,
  });


t.test('choosing Amortised in the settings drawer turns the figures into the amortised ones', async (t) => {
  const { base, browser, app } = await startProduct(t);
  const dir = await mkdtemp(join(tmpdir(), 'cc-basis-e2e-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'aws-commitment.csv');
  const header = 'BilledCost,EffectiveCost,BillingCurrency,BillingPeriodStart,ChargeCategory,ChargePeriodStart,CommitmentDiscountId,ProviderName,ServiceName,SubAccountId,SubAccountName';
  const csv = lines.map((l) =>
    [l.billed, l.effective, 'EUR', `${l.day.slice(0, 7)}-01T00:00:00Z`, l.category, `${l.day}T12:00:00Z`, l.category === 'Usage' && l.day < PURCHASE_DAY ? '' : 'cd-1', 'AWS', 'Amazon EC2', '111122223333', 'Production'].join(','),
  );
  await writeFile(file, [header, ...csv].join('\n') + '\n');
  await runIngest({ pool: app.env.pool, ...ACME, sourceKind: 'focus-file', fileName: 'aws-commitment.csv', source: focusCsvSource(file) });

  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
  t.teardown(() => context.close());
  const page = await context.newPage();
  const first = chartAnswer(page, (u) => u.includes('provider=gcp'));
  await signIn(page, base, 'alice@acme.example');
  t.match((await first).url(), /cost_basis=billed/, 'the web sends the basis, billed by default');

  // AWS on the default (Billed) basis: the purchase counts in full on its day.
  await page.getByRole('button', { name: 'Settings' }).click();
  let drawer = page.getByRole('dialog', { name: 'Settings' });
  t.ok(await drawer.getByRole('radio', { name: 'Billed' }).isChecked(), 'Billed is the default');
  t.ok(await drawer.getByText('What you pay and what the invoice says').isVisible(), 'Billed explained in one line');
  t.ok(await drawer.getByText('Prepaid commitments spread over the days of usage they cover').isVisible(), 'Amortised explained in one line');
  await drawer.getByLabel('Provider').selectOption('aws');
  // Day bars, so the purchase day is a bar of its own.
  await drawer.getByLabel('Date range').selectOption('30days');
  let answer = chartAnswer(page, (u) => u.includes('provider=aws'));
  await drawer.getByRole('button', { name: 'Save' }).click();
  let body = await (await answer).json();
  t.equal(body.cost_basis, 'billed');
  await page.getByRole('region', { name: 'Spend Sum' }).waitFor();
  t.equal(await spendSumShowing(page, shown(total('billed'))), shown(total('billed')), 'billed: the sum of BilledCost');
  const billedSpike = body.data.find((b: { date: string }) => b.date === PURCHASE_DAY);
  t.equal(billedSpike.total, new Decimal(lines.filter((l) => l.day === PURCHASE_DAY).reduce((s, l) => s.plus(l.billed), new Decimal(0))).toFixed(2), 'billed: the spike on the purchase day');
  // days before the spend have empty (hidden) bars: wait for a drawn one
  await page.locator('[data-testid="spend-chart"] .barlayer .point:visible').first().waitFor({ timeout: 30_000 });
  await page.screenshot({ path: `${SCREENSHOT_DIR}/billing-cost-basis-billed.png`, fullPage: true });

  // Amortised.
  await page.getByRole('button', { name: 'Settings' }).click();
  drawer = page.getByRole('dialog', { name: 'Settings' });
  await drawer.getByRole('radio', { name: 'Amortised' }).check();
  await page.screenshot({ path: `${SCREENSHOT_DIR}/billing-cost-basis-drawer.png` });
  answer = chartAnswer(page, (u) => u.includes('provider=aws') && u.includes('cost_basis=amortised'));
  await drawer.getByRole('button', { name: 'Save' }).click();
  body = await (await answer).json();
  t.equal(body.cost_basis, 'amortised');
  await page.waitForFunction(
    (want) => Array.from(document.querySelectorAll('dd')).some((d) => d.textContent === want),
    shown(total('effective')),
    { timeout: 30_000 },
  );
  t.equal(await spendSumShowing(page, shown(total('effective'))), shown(total('effective')), 'amortised: the sum of EffectiveCost');
  for (const bar of body.data) {
    const want = lines.filter((l) => l.day === bar.date).reduce((s, l) => s.plus(l.effective), new Decimal(0));
    t.equal(bar.total, want.toFixed(2), `amortised bar ${bar.date}`);
  }
  t.equal(await page.getByRole('definition').filter({ hasText: /^Amortised$/ }).count(), 1, 'the side note says Amortised');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/billing-cost-basis-amortised.png`, fullPage: true });

  // Saved with the dashboard settings: a reload keeps Amortised.
  const again = chartAnswer(page, (u) => u.includes('cost_basis=amortised'));
  await page.reload();
  await again;
  t.pass('the choice survives a reload');
});
