/**
 * The built-in System Health dashboard stays readable at 5 projects and at 500: each chart's plot takes at least half
 * of its panel, the spend charts show the top 10 projects by name plus one "Other projects" bar, a table toggle shows
 * the numbers, and the kiosk fits a 1920×1080 wall screen with its refresh time. Screenshots:
 * test-results/screenshots/health-readable-*.png.
 */
import t from 'tap';
import type { Page } from 'playwright-core';
import { addDays, billingToday } from '@cc/shared/time.ts';
import type { BillingSource, CostRow } from '@cc/shared/ports/billing-source.ts';
import { runIngest } from '../../workers/src/billing-ingest/ingest.ts';
import { SCREENSHOT_DIR, signIn, startProduct } from './harness.ts';

const ACME = { customerId: 'acme-corp', billingAccountId: '01A2B3-C4D5E6-F7A8B9' };
const KIOSK = '/systemhealth/kiosk/acme-corp?kiosk';

/** `n` Azure-like projects (long subscription ids, names), each with spend yesterday and on the days before. */
function projectsSource(n: number): BillingSource {
  const today = billingToday();
  const days = [1, 2, 3, 10].map((d) => addDays(today, -d));
  const rows: CostRow[] = [];
  for (let i = 0; i < n; i++) {
    const id = `/subscriptions/${String(i).padStart(8, '0')}-1111-4222-8333-444455556666`;
    for (const day of days) {
      rows.push({
        provider: 'gcp',
        provider_name: 'Google Cloud',
        usage_date: day,
        project_id: id,
        project_name: `Contoso workload ${String(i + 1).padStart(3, '0')}`,
        service: 'Compute Engine',
        sku: 'vCPU',
        cost: `${(i % 37) + 1}.25`,
        credits: '0',
        currency: 'EUR',
        invoice_month: day.slice(0, 7).replace('-', ''),
        cost_type: 'regular',
        project_labels: {},
        resource_labels: {},
      });
    }
  }
  return {
    label: `${n} projects`,
    window: { from: addDays(today, -40), to: today },
    providers: ['gcp'],
    async *rows() {
      let line = 0;
      for (const row of rows) yield { line: ++line, row };
    },
  };
}

/** Each drawn chart's plot area (plotly's drag rectangle) over its panel's area. */
async function plotShares(page: Page): Promise<{ title: string; share: number }[]> {
  await page.locator('figure .nsewdrag').first().waitFor();
  await page.waitForTimeout(400);
  return page.locator('figure').evaluateAll((figures) =>
    figures
      .filter((f) => f.querySelector('.nsewdrag'))
      .map((f) => {
        const panel = f.getBoundingClientRect();
        const plot = f.querySelector('.nsewdrag')!.getBoundingClientRect();
        return { title: f.querySelector('figcaption')?.textContent ?? '', share: (plot.width * plot.height) / (panel.width * panel.height) };
      }),
  );
}

t.test('System Health charts at 5 and 500 projects', async (t) => {
  const { base, browser, app } = await startProduct(t);
  const { pool } = app.env;
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  t.teardown(() => context.close());
  const page = await context.newPage();
  await signIn(page, base, 'alice@acme.example');
  await page.getByRole('navigation', { name: 'Side menu' }).waitFor();

  for (const n of [5, 500]) {
    await runIngest({ pool, ...ACME, sourceKind: 'gcp-generated', source: projectsSource(n) });
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${base}${KIOSK}`);
    await page.getByRole('main', { name: 'System Health dashboard' }).waitFor();
    const shares = await plotShares(page);
    // No ticket is open here: that panel says "No open tickets" instead of drawing an empty chart, and the alerts
    // panel says there are none, so the two spend charts are the ones drawn.
    t.equal(shares.length, 2, `${n} projects: the two spend charts drawn`);
    t.ok(await page.getByText('No open tickets').isVisible(), `${n} projects: the tickets panel says none is open`);
    for (const s of shares) t.ok(s.share >= 0.5, `${n} projects, laptop: "${s.title}" plot is ${(s.share * 100).toFixed(0)}% of its panel`);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/health-readable-${n}-1440.png`, fullPage: true });

    const spend = page.getByRole('figure', { name: /against the 28-day mean/ });
    const ticks = (await spend.locator('.ytick text').allTextContents()).map((x) => x.trim());
    if (n === 5) t.same(ticks.length, 5, 'every project by name');
    else {
      t.equal(ticks.length, 11, 'the top 10 and one more');
      t.equal(ticks[10], 'Other projects', 'the rest folded into one bar');
    }
    t.ok(ticks.every((x) => x === 'Other projects' || x.startsWith('Contoso workload')), `names, not ids: ${ticks.slice(0, 3).join(', ')}`);

    // The table toggle: the same rows as text, the project id beside the name.
    await spend.getByRole('button', { name: 'Show table' }).click();
    const table = spend.getByRole('table');
    await table.waitFor();
    const rows = table.locator('tbody tr');
    t.equal(await rows.count(), n === 5 ? 5 : 11);
    t.match(await rows.first().innerText(), /Contoso workload \d+\s+\/subscriptions\//, 'name and id');
    if (n === 500) t.match(await rows.last().innerText(), /Other projects\s+490 projects/);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/health-readable-${n}-table.png`, fullPage: true });
    await spend.getByRole('button', { name: 'Show chart' }).click();

    // The wall screen: every panel on one 1920×1080 screen, large type, the refresh time said.
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.reload();
    await page.getByRole('main', { name: 'System Health dashboard' }).waitFor();
    const wallShares = await plotShares(page);
    for (const s of wallShares) t.ok(s.share >= 0.5, `${n} projects, wall: "${s.title}" plot is ${(s.share * 100).toFixed(0)}% of its panel`);
    t.ok(await page.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight + 1), 'the wall screen does not scroll');
    const tickSize = await spend.locator('.ytick text').first().evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
    t.ok(tickSize >= 16, `labels readable from across a room: ${tickSize}px`);
    t.match(await page.getByTestId('health-refreshed').innerText(), /^Updated \d{4}\/\d\d\/\d\d \d\d:\d\d P[SD]T · refreshes every 5 minutes$/);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/health-readable-${n}-1920.png` });

    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await page.getByRole('main', { name: 'System Health dashboard' }).waitFor();
    for (const s of await plotShares(page)) t.ok(s.share >= 0.5, `${n} projects, phone: "${s.title}" plot is ${(s.share * 100).toFixed(0)}% of its panel`);
    t.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no sideways scroll on a phone');
    await page.screenshot({ path: `${SCREENSHOT_DIR}/health-readable-${n}-390.png`, fullPage: true });
  }
});
