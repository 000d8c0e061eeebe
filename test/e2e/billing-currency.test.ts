/**
 * The billing dashboard of an EUR customer holding GCP spend in EUR and AWS spend in USD, with the demo rates loaded,
 * in Chromium: the AWS-only and All views show EUR figures equal to the sums converted here (decimal.js, each line at
 * its own day's rate), the rate source and the demo-rates note; screenshots at 360, 800 and 1440 px.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import Decimal from 'decimal.js';
import type { Page, Response } from 'playwright-core';
import { addDays, billingToday } from '@cc/shared/time.ts';
import { parseRatesCsv } from '@cc/shared/billing/fx-csv.ts';
import { saveRates } from '@cc/shared/db/fx-rates.ts';
import type { CostRow } from '@cc/shared/ports/billing-source.ts';
import { runIngest } from '../../workers/src/billing-ingest/ingest.ts';
import { DEMO_RATES_FILE } from '@cc/shared/adapters/fx-rates/local.ts';
import { startProduct, signIn, spendSumShowing, SCREENSHOT_DIR } from './harness.ts';

Decimal.set({ precision: 60, rounding: Decimal.ROUND_HALF_UP });
const ACME = { customerId: 'acme-corp', billingAccountId: '01A2B3-C4D5E6-F7A8B9' };
const today = billingToday();
const demo = parseRatesCsv(readFileSync(DEMO_RATES_FILE, 'utf8')).rates.filter((r) => r.currency === 'USD');

/** EUR per USD on a usage day: the latest demo fixing at most 7 days before, 1 / rate rounded to 10 decimals. */
function usdToEur(day: string): Decimal {
  for (let back = 0; back <= 7; back++) {
    const f = demo.find((r) => r.rate_date === addDays(day, -back));
    if (f) return new Decimal(1).div(f.rate).toDecimalPlaces(10);
  }
  throw new Error(`no demo rate for ${day}`);
}
/** As the dashboard writes money: English grouping, 2 decimals. */
const shown = (d: Decimal) => `${d.toDecimalPlaces(2).toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ',')} EUR`;

const row = (provider: 'gcp' | 'aws', day: string, cost: string): CostRow => ({
  provider,
  provider_name: provider === 'gcp' ? 'Google Cloud' : 'AWS',
  usage_date: day,
  project_id: provider === 'gcp' ? 'acme-web' : '111122223333',
  project_name: provider === 'gcp' ? 'Web' : 'Production',
  service: provider === 'gcp' ? 'Compute Engine' : 'Amazon EC2',
  sku: 'sku',
  cost,
  credits: '0',
  currency: provider === 'gcp' ? 'EUR' : 'USD',
  invoice_month: null,
  cost_type: 'usage',
  project_labels: {},
  resource_labels: {},
});

const chartAnswer = (page: Page, provider: string) =>
  page.waitForResponse((r: Response) => r.request().method() === 'POST' && r.url().includes('/v2/billing/aggregated/by_service/chart/acme-corp?') && r.url().includes(`provider=${provider}`), { timeout: 60_000 });

t.test('EUR figures from EUR and USD spend, with the rate source and the demo note', async (t) => {
  const { base, browser, app } = await startProduct(t);
  const { pool } = app.env;
  await saveRates(pool, 'demo', demo);
  const rows: CostRow[] = [];
  for (let i = 1; i <= 20; i++) {
    const day = addDays(today, -i);
    rows.push(row('gcp', day, `${100 + i}.123456789012`), row('aws', day, `${200 + 3 * i}.987654321098`));
  }
  for (const provider of ['gcp', 'aws'] as const) {
    await runIngest({
      pool, ...ACME, sourceKind: 'focus-file', fileName: `${provider}.csv`,
      source: { label: provider, async *rows() { let line = 1; for (const r of rows.filter((x) => x.provider === provider)) yield { line: ++line, row: r }; } },
    });
  }
  const gcp = rows.filter((r) => r.provider === 'gcp').reduce((s, r) => s.plus(r.cost), new Decimal(0));
  const aws = rows.filter((r) => r.provider === 'aws').reduce((s, r) => s.plus(new Decimal(r.cost).times(usdToEur(r.usage_date))), new Decimal(0));

  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
  t.teardown(() => context.close());
  const page = await context.newPage();
  const first = chartAnswer(page, 'gcp');
  await signIn(page, base, 'alice@acme.example');
  await first;
  await page.getByRole('region', { name: 'Spend Sum' }).waitFor();
  t.equal(await spendSumShowing(page, shown(gcp)), shown(gcp), 'gcp: EUR spend as stored');

  for (const [provider, want] of [['aws', aws], ['all', gcp.plus(aws)]] as const) {
    await page.getByRole('button', { name: 'Settings' }).click();
    const drawer = page.getByRole('dialog', { name: 'Settings' });
    await drawer.getByLabel('Provider').selectOption(provider);
    const answer = chartAnswer(page, provider);
    await drawer.getByRole('button', { name: 'Save' }).click();
    const body = await (await answer).json();
    t.equal(body.currency, 'EUR');
    await page.getByTestId('currency-conversion').waitFor();
    t.equal(await spendSumShowing(page, shown(want)), shown(want), `${provider}: the converted sum, in EUR`);
    const note = await page.getByTestId('currency-conversion').innerText();
    t.match(note, /converted at the rate of each usage day/, 'says how it was converted');
    t.match(note, /USD = [\d,.]+ EUR \(demo rates\)/, 'names the rate source');
    t.match(note, /Demo exchange rates/, 'the demo-rates note');
  }
  for (const width of [360, 800, 1440]) {
    await page.setViewportSize({ width, height: 1000 });
    await page.waitForTimeout(500);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/billing-currency-all-${width}.png`, fullPage: true });
    t.ok(await page.getByTestId('currency-conversion').isVisible(), `the conversion note at ${width} px`);
  }
});
