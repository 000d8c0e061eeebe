/**
 * The billing dashboard (home) in Chromium over generated spend for acme-corp's first billing account:
 * the lazily loaded spend chart, the settings drawer (period, group by, required label, provider reset,
 * Reset to default, saved locally), tabs, Top N and Projects, the export download, and the
 * customerViewer restrictions. Screenshots land in test-results/screenshots/.
 */
import t from 'tap';
import { readFile } from 'node:fs/promises';
import type { Page, Response } from 'playwright-core';
import { addDays, addMonths, billingToday } from '@cc/shared/time.ts';
import { gcpGeneratedSource } from '@cc/shared/adapters/bigquery/local.ts';
import { runIngest } from '../../workers/src/billing-ingest/ingest.ts';
import { bearer, login } from '../helper.ts';
import { startProduct, signIn, SCREENSHOT_DIR } from './harness.ts';

const ACME = { customerId: 'acme-corp', billingAccountId: '01A2B3-C4D5E6-F7A8B9' };
const SECOND_ACCOUNT = '01FFEE-DDCCBB-AA9988';
const MONEY = /^-?\d{1,3}(,\d{3})*\.\d{2} EUR$/;

interface ChartAnswer {
  keys: string[];
  data: { date: string; values: Record<string, number>; total: string }[];
  series?: { project_id: string | null }[];
}

/** The next chart answer whose request URL matches `pattern`. */
const chartAnswer = (page: Page, pattern: RegExp) =>
  page.waitForResponse((r: Response) => r.request().method() === 'POST' && pattern.test(r.url()) && !r.url().includes('/export'), { timeout: 30_000 });

/** The plotly chart has drawn its bars. */
async function chartDrawn(page: Page): Promise<void> {
  await page.locator('[data-testid="spend-chart"] .main-svg').first().waitFor({ timeout: 30_000 });
  await page.locator('[data-testid="spend-chart"] .barlayer .point').first().waitFor({ timeout: 30_000 });
}

const sideNote = (page: Page) => page.getByRole('definition').filter({ hasText: /\d{4}-\d{2}-\d{2} - \d{4}-\d{2}-\d{2}/ });

/**
 * What runs off the side in the content area: elements reaching past the viewport, or whose content is wider than
 * their box (clipped or scrolled figures, HTML only). Visually hidden parts (clip-path, e.g. a stacked table's header row) are
 * not seen, so they do not count.
 */
async function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const vw = document.documentElement.clientWidth;
    const out: string[] = [];
    if (document.documentElement.scrollWidth > vw) out.push(`the page scrolls sideways (${document.documentElement.scrollWidth} > ${vw})`);
    for (const el of Array.from(document.querySelectorAll('main *'))) {
      const r = el.getBoundingClientRect();
      if (r.width === 0) continue;
      let hidden = false;
      for (let e: Element | null = el; e && !hidden; e = e.parentElement) hidden = getComputedStyle(e).clipPath !== 'none';
      if (hidden) continue;
      const text = (el.textContent ?? '').trim().slice(0, 40);
      if (r.right > vw + 1) out.push(`${el.tagName} '${text}' ends at ${Math.round(r.right)} px`);
      // SVG boxes (the plotly chart's rotated ticks) report no meaningful scroll width; their ends are checked above.
      else if (el instanceof HTMLElement && el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1) out.push(`${el.tagName} '${text}' is ${el.scrollWidth} px wide in ${el.clientWidth} px`);
    }
    return out;
  });
}

async function openSettings(page: Page) {
  await page.getByRole('button', { name: 'Settings' }).click();
  const drawer = page.getByRole('dialog', { name: 'Settings' });
  await drawer.waitFor();
  return drawer;
}

t.test('billing dashboard', async (t) => {
  const { base, browser, app } = await startProduct(t);
  // 13 months of generated GCP spend up to yesterday (US/Pacific), as the nightly ingest would load it.
  const today = billingToday();
  const from = `${addMonths(today, -12).slice(0, 8)}01`;
  const to = addDays(today, -1);
  // Spec 001 §9: 12 months run from the first day of the month 11 months before yesterday's month up to yesterday.
  const twelveMonthsFrom = addMonths(`${to.slice(0, 8)}01`, -11);
  await runIngest({
    pool: app.env.pool,
    ...ACME,
    sourceKind: 'gcp-generated',
    source: gcpGeneratedSource({ ...ACME, currency: 'EUR', from, to }),
  });

  // The second account holds one day whose resource label 'orphan' has no value: '(not applicable)'.
  const day = addDays(today, -2);
  const orphanRow = {
    provider: 'gcp',
    provider_name: 'Google Cloud',
    usage_date: day,
    project_id: 'acmeco-sandbox',
    project_name: 'Sandbox',
    service: 'Compute Engine',
    sku: 'N2 Instance Core running in Belgium',
    cost: '12.345678',
    credits: '0',
    currency: 'EUR',
    invoice_month: day.slice(0, 4) + day.slice(5, 7),
    cost_type: 'regular',
    project_labels: { team: 'sandbox' },
    resource_labels: { orphan: '', component: 'vm' },
  };
  // An AWS row on the same account (the gcp drawer must not offer its service), and a project label key with a
  // leading space as in the FOCUS sample (' org'), shown faithfully.
  const awsRow = { ...orphanRow, provider: 'aws', provider_name: 'AWS', service: 'Amazon Elastic Compute Cloud', sku: 'BoxUsage', resource_labels: {} };
  const spacedRow = { ...orphanRow, service: 'Cloud Storage', sku: 'Standard Storage', project_labels: { ' org': 'finance' }, resource_labels: {} };
  await runIngest({
    pool: app.env.pool,
    customerId: ACME.customerId,
    billingAccountId: SECOND_ACCOUNT,
    sourceKind: 'gcp-generated',
    source: {
      label: 'three hand-made rows',
      async *rows() {
        yield { line: 1, row: orphanRow };
        yield { line: 2, row: awsRow };
        yield { line: 3, row: spacedRow };
      },
    },
  });

  t.test('alice: chart, settings drawer, tabs, Top N, Projects, export', async (t) => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 1000 }, acceptDownloads: true });
    t.teardown(() => context.close());
    const page = await context.newPage();
    const requested: string[] = [];
    page.on('request', (r) => requested.push(r.url()));

    await page.goto(base);
    await page.getByRole('button', { name: 'Sign In', exact: true }).waitFor();
    t.notOk(requested.some((u) => u.includes('plotly')), 'the login page does not load plotly');

    const first = chartAnswer(page, /\/v2\/billing\/aggregated\/by_service\/chart\/acme-corp\?/);
    await signIn(page, base, 'alice@acme.example');
    const firstAnswer = await first;
    t.match(firstAnswer.url(), /provider=gcp/, 'default provider gcp');
    t.match(firstAnswer.url(), /period=12months/, 'default period 12months');
    t.match(firstAnswer.url(), /top=10/, 'default Top 10');
    t.same(firstAnswer.request().postDataJSON(), { services: [] }, 'all services: empty list');
    const totalChart = (await firstAnswer.json()) as ChartAnswer;
    t.equal(totalChart.data.length, 12, '12 monthly bars');
    await chartDrawn(page);
    t.ok(requested.some((u) => /plotly-partial-[\w-]+\.js$/.test(u)), 'plotly is fetched as its own file once the chart draws');

    t.same(await page.getByRole('tab').allInnerTexts(), ['Total', 'Project with Service'], 'service tabs for gcp');
    for (const name of ['Viewers', 'Alerts', 'Export', 'Settings']) {
      t.equal(await page.getByRole('button', { name, exact: true }).count(), 1, `${name} icon shown`);
    }
    const note = await page.locator('dl[aria-label="Billing period"]').innerText();
    t.match(note, /US Pacific, \d{4}\/\d{2}\/\d{2} \d{2}:\d{2}/, 'side note: US Pacific time');
    t.match(note, new RegExp(`${twelveMonthsFrom} - ${to}`), 'side note: 12-month range up to yesterday');
    t.match(note, /EUR/, 'side note: currency');

    const sum = page.getByRole('region', { name: 'Spend Sum' });
    for (const label of ['Selected period', 'Month-to-date', 'Previous month']) {
      const value = await sum.locator('div', { hasText: label }).locator('dd').innerText();
      t.match(value, MONEY, `${label} in English style with 2 decimals`);
    }
    const bars = await page.locator('[data-testid="spend-chart"] .barlayer .trace').count();
    t.equal(bars, totalChart.keys.length, 'one stacked trace per series key');
    t.same(await page.getByRole('list', { name: 'Legend' }).getByRole('listitem').allInnerTexts(), totalChart.keys, 'legend lists the keys');
    t.equal(await page.locator('[data-testid="spend-chart"] .annotation').count(), 12, 'a total label above each of the 12 wide bars');
    const tick = (await page.locator('[data-testid="spend-chart"] .ytick text').allTextContents()).filter(Boolean);
    t.ok(tick.length > 1 && tick.every((s) => /^\d{1,3}(,\d{3})*$/.test(s)), `y axis with 0 decimals: ${tick.join(' ')}`);
    // Tier Discount (acme-corp): the month table with the tier columns, and the tier table.
    const current = page.getByRole('table', { name: 'Current month discount' });
    t.same(await current.getByRole('columnheader').allInnerTexts(), [
      'Month',
      'Monthly Spend',
      'Forecasted Monthly Spend',
      'Discount',
      'Reached Tier',
      'Forecasted Reached Tier',
      'Discounted Spend',
      'Forecasted Discounted Spend',
    ]);
    const tiers = page.getByRole('table', { name: 'Discount tiers' });
    t.same(await tiers.locator('tbody tr').allInnerTexts(), ['10,000.00\t2%', '50,000.00\t4%'], 'the seeded tiers by threshold');
    await page.screenshot({ path: `${SCREENSHOT_DIR}/billing-alice-total.png`, fullPage: true });

    // Detail tab: Top N and Projects.
    let next = chartAnswer(page, /\/v2\/billing\/details\/chart\/acme-corp\?.*top=10/);
    await page.getByRole('tab', { name: 'Project with Service' }).click();
    const detail = (await (await next).json()) as ChartAnswer;
    await chartDrawn(page);
    const topN = page.getByRole('combobox', { name: 'Top N' });
    t.equal(await topN.inputValue(), '10');
    t.same(await topN.locator('option').allInnerTexts(), ['Top 5', 'Top 10', 'Top 15', 'All']);
    const projectsButton = page.getByRole('button', { name: 'Projects All Selected' });
    t.equal(await projectsButton.count(), 1, "Projects multi-select with placeholder 'All Selected'");
    t.ok(detail.keys.length <= 11, `Top 10 plus Others: ${detail.keys.length} keys`);

    next = chartAnswer(page, /\/v2\/billing\/details\/chart\/acme-corp\?.*top=5/);
    await topN.selectOption({ label: 'Top 5' });
    const top5 = (await (await next).json()) as ChartAnswer;
    t.ok(top5.keys.length <= 6, `Top 5 plus Others: ${top5.keys.length} keys`);
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="spend-chart"] .barlayer .trace').length === n, top5.keys.length);
    t.pass('the chart redraws with the Top 5 series');

    await projectsButton.click();
    const options = page.getByRole('menuitemcheckbox');
    await options.first().waitFor();
    const optionTexts = await options.allInnerTexts();
    t.equal(optionTexts[0].trim(), 'All Selected');
    const projectOption = options.nth(1);
    const projectText = (await projectOption.innerText()).trim();
    next = chartAnswer(page, /\/v2\/billing\/details\/chart\/acme-corp\?/);
    await projectOption.click();
    const filtered = await next;
    const body = filtered.request().postDataJSON() as { projects: string[] };
    t.equal(body.projects.length, 1, `one project chosen: ${projectText}`);
    t.ok(projectText.includes(body.projects[0]), 'the option carries the project id sent');
    await page.keyboard.press('Escape');
    await chartDrawn(page);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/billing-alice-project-with-service.png`, fullPage: true });

    // The export follows the detail tab's Projects choice.
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    const projectExport = page.getByRole('dialog', { name: 'Export' });
    await projectExport.waitFor();
    t.match(await projectExport.innerText(), body.projects[0], 'the export dialog names the chosen project');
    const exportRequest = page.waitForRequest((r) => r.method() === 'POST' && r.url().includes('/v2/billing/details/chart/acme-corp/export'));
    const projectDownload = page.waitForEvent('download', { timeout: 30_000 });
    await projectExport.getByRole('button', { name: 'Download' }).click();
    t.same((await exportRequest).postDataJSON(), { services: [], projects: body.projects }, 'the export sends the Projects choice');
    await projectDownload;
    await projectExport.waitFor({ state: 'hidden', timeout: 5_000 });

    // Settings drawer: 30 days.
    let drawer = await openSettings(page);
    await page.waitForTimeout(800); // the drawer slides in
    await page.screenshot({ path: `${SCREENSHOT_DIR}/billing-alice-settings.png` });
    await drawer.getByLabel('Date range').selectOption('30days');
    t.equal(await page.getByRole('table', { name: 'Previous months discount' }).count(), 0, 'no earlier months without Historical data');
    await drawer.getByLabel('Historical data').check();
    // Saved settings draw a new chart on the first tab, Total, not on the detail tab that was open.
    next = chartAnswer(page, /\/v2\/billing\/aggregated\/by_service\/chart\/acme-corp\?.*period=30days/);
    await drawer.getByRole('button', { name: 'Save' }).click();
    const thirty = (await (await next).json()) as ChartAnswer;
    t.equal(thirty.data.length, 30, '30 daily bars');
    t.equal(await page.getByRole('tab', { selected: true }).innerText(), 'Total', 'after Save the dashboard shows Total');
    await chartDrawn(page);
    await page.getByRole('table', { name: 'Previous months discount' }).waitFor();
    t.pass('Historical data lists the earlier months of the discount summary');
    t.match(await sideNote(page).innerText(), `${addDays(today, -30)} - ${to}`, 'side note follows the period');
    await page.screenshot({ path: `${SCREENSHOT_DIR}/billing-alice-30days.png`, fullPage: true });

    // Saved locally: a reload keeps the period.
    await page.reload();
    await page.getByRole('tab', { name: 'Total' }).waitFor();
    t.match(await sideNote(page).innerText(), `${addDays(today, -30)} - ${to}`, 'settings survive a reload');

    // Group by Project Label: the label is required, Save disabled until chosen.
    drawer = await openSettings(page);
    await drawer.getByLabel('Group by').selectOption('projectLabel');
    t.equal(await drawer.getByText('This field is required').count(), 1, "'This field is required' under Project label");
    t.ok(await drawer.getByRole('button', { name: 'Save' }).isDisabled(), 'Save disabled while the project label is missing');
    await drawer.getByLabel('Project label').selectOption('team');
    t.notOk(await drawer.getByRole('button', { name: 'Save' }).isDisabled(), 'Save enabled once chosen');

    // Provider change resets group by to Service.
    await drawer.getByLabel('Provider').selectOption('aws');
    t.equal(await drawer.getByLabel('Group by').inputValue(), 'serviceAndProject', 'provider change resets group by to Service');
    t.ok(await drawer.getByLabel('Group by').isDisabled(), 'group by offered only for gcp');
    await drawer.getByLabel('Provider').selectOption('gcp');
    await drawer.getByLabel('Group by').selectOption('resourceLabel');
    t.ok(await drawer.getByRole('button', { name: 'Save' }).isDisabled(), 'resource label required too');
    const resourceOptions = await drawer.getByLabel('Resource label').locator('option').allInnerTexts();
    t.ok(resourceOptions.includes('component'), `resource labels offered: ${resourceOptions.join(', ')}`);
    await drawer.getByLabel('Group by').selectOption('projectLabel');
    await drawer.getByLabel('Project label').selectOption('team');
    next = chartAnswer(page, /\/v2\/billing\/project\/labels\/chart\/acme-corp\?/);
    await drawer.getByRole('button', { name: 'Save' }).click();
    const labelAnswer = await next;
    t.same(labelAnswer.request().postDataJSON(), { project_label: 'team' });
    t.same(await page.getByRole('tab').allInnerTexts(), ['Total with Project Label', 'Project Labels with Project']);
    await chartDrawn(page);
    t.equal(await page.locator('figcaption').innerText(), 'Total with Project Label (team)', 'the chart names the label drawn');
    await page.screenshot({ path: `${SCREENSHOT_DIR}/billing-alice-project-label.png`, fullPage: true });

    // Resource label grouping has no export.
    drawer = await openSettings(page);
    await drawer.getByLabel('Group by').selectOption('resourceLabel');
    await drawer.getByLabel('Resource label').selectOption('component');
    await drawer.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('tab', { name: 'Total with Resource Label' }).waitFor();
    t.equal(await page.getByRole('button', { name: 'Export', exact: true }).count(), 0, 'no Export for resource-label grouping');

    // Reset to default: 12 months, Service, Top 10.
    drawer = await openSettings(page);
    await drawer.getByRole('button', { name: 'Reset to default' }).click();
    t.equal(await drawer.getByLabel('Date range').inputValue(), '12months');
    t.equal(await drawer.getByLabel('Group by').inputValue(), 'serviceAndProject');
    t.equal(await drawer.getByLabel('Top', { exact: true }).inputValue(), '10');
    t.ok(await drawer.getByLabel('Show spend sum').isChecked(), 'show spend sum on by default');
    await drawer.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('tab', { name: 'Project with Service' }).waitFor();
    t.match(await sideNote(page).innerText(), `${twelveMonthsFrom} - ${to}`, 'back to 12 months');

    // Export: file name and rows equal the export answer.
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Export' });
    await dialog.waitFor();
    t.match(await dialog.innerText(), 'cc_gcp_billing_data_12months.csv');
    const downloadEvent = page.waitForEvent('download', { timeout: 30_000 });
    const clickedAt = Date.now();
    await dialog.getByRole('button', { name: 'Download' }).click();
    const download = await downloadEvent;
    t.equal(download.suggestedFilename(), 'cc_gcp_billing_data_12months.csv');
    await dialog.waitFor({ state: 'hidden', timeout: 5_000 });
    const closedAfter = Date.now() - clickedAt;
    t.ok(closedAfter >= 900, `the dialog closes about 1 s after the click (${closedAfter} ms)`);
    const csv = await readFile((await download.path()) as string, 'utf8');

    const token = await login(app, 'alice@acme.example');
    const q = new URLSearchParams({ billing_account_id: ACME.billingAccountId, provider: 'gcp', period: '12months', timezone: 'US/Pacific' });
    const res = await app.inject({ method: 'POST', url: `/v2/billing/details/chart/acme-corp/export?${q}`, headers: bearer(token), payload: { services: [] } });
    t.equal(res.statusCode, 200);
    const answer = res.json() as { headers: string[]; rows: string[][] };
    t.ok(answer.rows.length > 0, `export has rows (${answer.rows.length})`);
    const lines = csv.trimEnd().split('\r\n');
    t.equal(lines.length, answer.rows.length + 1, 'header line plus one line per row');
    t.equal(lines[0], answer.headers.join(','), 'header line is the answer headers');
    const quote = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
    t.same(lines.slice(1), answer.rows.map((r) => r.map(quote).join(',')), 'every row as answered');
  });

  t.test('the dashboard fits from a 360 px phone to a wide screen', async (t) => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    t.teardown(() => context.close());
    const page = await context.newPage();
    await signIn(page, base, 'alice@acme.example');
    await chartDrawn(page);
    // Every table of the Tier Discount summary: the current month, the tiers and the earlier months.
    const drawer = await openSettings(page);
    await drawer.getByLabel('Historical data').check();
    await drawer.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('table', { name: 'Previous months discount' }).waitFor();
    for (const width of [360, 800, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await page.waitForFunction((w) => document.documentElement.clientWidth === w, width);
      await page.waitForTimeout(300); // the chart follows its box's new width
      await chartDrawn(page);
      t.same(await overflowing(page), [], `nothing runs off the side at ${width} px`);
      const sum = page.getByRole('region', { name: 'Spend Sum' });
      for (const label of ['Selected period', 'Month-to-date', 'Previous month']) {
        const value = await sum.locator('div', { hasText: label }).locator('dd').innerText();
        t.match(value.replace(/\s+/g, ' '), MONEY, `${width} px: ${label} shown whole`);
      }
      t.equal(await page.getByRole('table', { name: 'Current month discount' }).getByText('Forecasted Discounted Spend').count(), 1, `${width} px: every column is named`);
      await page.screenshot({ path: `${SCREENSHOT_DIR}/billing-width-${width}.png`, fullPage: true });
    }
  });

  t.test('victor (customerViewer): only the project-label view, filtered', async (t) => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
    t.teardown(() => context.close());
    const page = await context.newPage();
    const first = chartAnswer(page, /\/v2\/billing\/project\/labels\/chart\/acme-corp\?/);
    await signIn(page, base, 'victor@acme.example');
    const answer = await first;
    t.same(answer.request().postDataJSON(), { project_label: 'team' }, "the viewer's filter key is the project label");
    const chart = (await answer.json()) as ChartAnswer;
    t.same(chart.keys, ['analytics'], 'only the label value of the filter');
    await chartDrawn(page);
    t.same(await page.getByRole('tab').allInnerTexts(), ['Total with Project Label', 'Project Labels with Project']);
    for (const name of ['Viewers', 'Alerts', 'Export']) {
      t.equal(await page.getByRole('button', { name, exact: true }).count(), 0, `no ${name} icon`);
    }
    await page.screenshot({ path: `${SCREENSHOT_DIR}/billing-victor.png`, fullPage: true });

    const drawer = await openSettings(page);
    t.ok(await drawer.getByLabel('Provider').isDisabled(), 'a viewer cannot pick the provider');
    t.equal(await drawer.getByLabel('Provider').inputValue(), 'all', 'the fixed provider is the one the api answers with (all)');
    t.ok(await drawer.getByLabel('Group by').isDisabled(), 'nor the grouping');
    t.equal(await drawer.getByLabel('Group by').inputValue(), 'projectLabel');
    await page.waitForTimeout(800);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/billing-victor-settings.png` });
    await drawer.getByRole('button', { name: 'Cancel' }).click();

    const next = chartAnswer(page, /\/v2\/billing\/project\/labels\/details\/chart\/acme-corp\?/);
    await page.getByRole('tab', { name: 'Project Labels with Project' }).click();
    const details = (await (await next).json()) as ChartAnswer;
    const projects = new Set((details.series ?? []).map((s) => s.project_id).filter(Boolean));
    t.ok(projects.size > 0 && [...projects].every((p) => String(p).includes('analytics')), `only analytics projects: ${[...projects].join(', ')}`);
    await chartDrawn(page);
  });

  t.test('alice on globex: no spend yet shows the placeholder; settings are per customer', async (t) => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    t.teardown(() => context.close());
    const page = await context.newPage();
    await signIn(page, base, 'alice@acme.example');
    await page.getByRole('tab', { name: 'Total' }).waitFor();

    // A customized period needs both dates; the services choice goes into the body.
    let drawer = await openSettings(page);
    await drawer.getByLabel('Date range').selectOption('CustomizedPeriod');
    await drawer.getByLabel('Start date').fill('');
    t.equal(await drawer.getByText('This field is required').count(), 1, 'start date required');
    t.ok(await drawer.getByRole('button', { name: 'Save' }).isDisabled(), 'Save disabled without a start date');
    await drawer.getByLabel('Start date').fill(addDays(today, -10));
    await drawer.getByLabel('End date').fill(addDays(today, -3));
    const services = drawer.getByRole('button', { name: /^Services/ });
    await services.click();
    // The menu is ready once the settings route's services are in it; a click before that lands on a list
    // that is still being drawn (seen once in CI under load).
    const bigQuery = page.getByRole('menuitemcheckbox', { name: 'BigQuery' });
    await bigQuery.waitFor();
    await bigQuery.click();
    await page.getByRole('menuitemcheckbox', { name: 'BigQuery', checked: true }).waitFor({ timeout: 5000 });
    await services.click();
    await drawer.getByRole('button', { name: 'Services BigQuery' }).waitFor({ timeout: 5000 }).catch(() => undefined);
    t.equal(await drawer.getByRole('button', { name: 'Services BigQuery' }).count(), 1, 'the chosen service shows on the button');
    let next = chartAnswer(page, /\/v2\/billing\/aggregated\/by_service\/chart\/acme-corp\?.*period=CustomizedPeriod/);
    await drawer.getByRole('button', { name: 'Save' }).click();
    const custom = await next;
    const url = new URL(custom.url());
    t.equal(url.searchParams.get('start_date'), addDays(today, -10));
    t.equal(url.searchParams.get('end_date'), addDays(today, -3));
    t.same(custom.request().postDataJSON(), { services: ['BigQuery'] }, 'selected services in the body');
    t.equal(((await custom.json()) as ChartAnswer).data.length, 8, '8 days in the customized period');
    await chartDrawn(page);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/billing-alice-custom-bigquery.png`, fullPage: true });

    // Alerts and Viewers apply to the first billing account only.
    await page.getByRole('combobox', { name: 'Billing account' }).selectOption(SECOND_ACCOUNT);
    await page.getByRole('button', { name: 'Settings' }).waitFor();
    await page.waitForFunction(() => !document.querySelector('[aria-label="Alerts"]'));
    t.equal(await page.getByRole('button', { name: 'Viewers', exact: true }).count(), 0, 'no Viewers on the second account');
    t.equal(await page.getByRole('button', { name: 'Export', exact: true }).count(), 1, 'Export still offered');
    drawer = await openSettings(page);
    await drawer.getByLabel('Group by').selectOption('resourceLabel');
    const orphan = drawer.getByLabel('Resource label').locator('option', { hasText: 'orphan' });
    t.equal(await orphan.innerText(), 'orphan (not applicable)', 'a resource label without values is marked');
    t.ok(await orphan.isDisabled(), 'and cannot be chosen');
    t.notOk(await drawer.getByLabel('Resource label').locator('option', { hasText: 'component' }).isDisabled());
    await page.waitForTimeout(800);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/billing-alice-resource-label-settings.png` });
    await drawer.getByRole('button', { name: 'Cancel' }).click();

    // The services offered follow the provider chosen in the drawer, asked of the settings route.
    const serviceNames = async () => (await page.getByRole('menuitemcheckbox').allInnerTexts()).map((x) => x.trim()).filter((x) => x !== 'All Selected');
    drawer = await openSettings(page);
    const servicesButton = drawer.getByRole('button', { name: /^Services/ });
    await servicesButton.click();
    await page.getByRole('menuitemcheckbox', { name: 'Compute Engine' }).waitFor();
    const gcpServices = await serviceNames();
    t.notOk(gcpServices.includes('Amazon Elastic Compute Cloud'), `gcp offers no AWS service: ${gcpServices.join(', ')}`);
    await page.keyboard.press('Escape');
    const awsSettings = page.waitForResponse((r) => r.url().includes('/v2/billing/settings/acme-corp?') && new URL(r.url()).searchParams.get('provider') === 'aws');
    await drawer.getByLabel('Provider').selectOption('aws');
    t.same(((await (await awsSettings).json()) as { services: string[] }).services, ['Amazon Elastic Compute Cloud'], 'the route answers the provider asked');
    await servicesButton.click();
    await page.getByRole('menuitemcheckbox', { name: 'Amazon Elastic Compute Cloud' }).waitFor();
    t.same(await serviceNames(), ['Amazon Elastic Compute Cloud'], 'aws offers its own services only');
    await page.keyboard.press('Escape');
    await drawer.getByRole('button', { name: 'Cancel' }).click();

    // A label key with a leading space is shown with a visible mark, not as '( org)'.
    drawer = await openSettings(page);
    await drawer.getByLabel('Group by').selectOption('projectLabel');
    const spaced = drawer.getByLabel('Project label').locator('option', { hasText: 'org' });
    t.equal(await spaced.innerText(), '\u2423org', "the key ' org' reads '\u2423org'");
    await drawer.getByLabel('Project label').selectOption(' org');
    next = chartAnswer(page, /\/v2\/billing\/project\/labels\/chart\/acme-corp\?/);
    await drawer.getByRole('button', { name: 'Save' }).click();
    t.same((await next).request().postDataJSON(), { project_label: ' org' }, 'the key is sent as stored');
    await page.locator('figcaption', { hasText: 'Total with Project Label' }).waitFor();
    t.equal(await page.locator('figcaption').innerText(), 'Total with Project Label (\u2423org)', 'the chart title shows the key faithfully');
    drawer = await openSettings(page);
    await drawer.getByLabel('Group by').selectOption('serviceAndProject');
    await drawer.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('tab', { name: 'Total', exact: true }).waitFor();

    // The account choice survives a reload and a deep link: the second account's alerts are not implemented.
    await page.goto(`${base}/billing/alerts`);
    await page.getByText('Alerts is not implemented for this billing account').waitFor();
    t.equal(await page.getByRole('combobox', { name: 'Billing account' }).inputValue(), SECOND_ACCOUNT, 'a deep link keeps the chosen account');
    await page.goto(base);
    await page.getByRole('button', { name: 'Settings' }).waitFor();
    t.equal(await page.getByRole('combobox', { name: 'Billing account' }).inputValue(), SECOND_ACCOUNT, 'a reload keeps it too');

    await page.getByRole('combobox', { name: 'Billing account' }).selectOption('01A2B3-C4D5E6-F7A8B9');
    await page.getByRole('button', { name: 'Alerts', exact: true }).waitFor();

    drawer = await openSettings(page);
    await drawer.getByLabel('Date range').selectOption('7days');
    next = chartAnswer(page, /period=7days/);
    await drawer.getByRole('button', { name: 'Save' }).click();
    await next;
    await page.getByRole('combobox', { name: 'Customer' }).selectOption({ label: 'Globex Corporation' });
    await page.getByTestId('chart-placeholder').getByText('No spend in the selected period').waitFor({ timeout: 30_000 });
    t.pass('empty chart area shows the placeholder');
    const note = await page.locator('dl[aria-label="Billing period"]').innerText();
    t.match(note, /USD/, "globex's currency");
    const setTable = page.getByRole('table', { name: 'Current month discount' });
    t.same(
      await setTable.getByRole('columnheader').allInnerTexts(),
      ['Month', 'Monthly Spend', 'Forecasted Monthly Spend', 'Discount', 'Discounted Spend', 'Forecasted Discounted Spend'],
      'Set Discount: no tier columns',
    );
    t.equal(await setTable.locator('tbody td').nth(2).innerText(), '5%', "globex's set discount");
    t.equal(await page.getByRole('table', { name: 'Discount tiers' }).count(), 0, 'no tier table for Set Discount');
    t.match(note, `${twelveMonthsFrom} - ${to}`, "globex keeps its own (default) settings, not acme's 7 days");
    await page.screenshot({ path: `${SCREENSHOT_DIR}/billing-globex-empty.png`, fullPage: true });

    // Selecting a customer resets the billing account to its first (spec 001 §4), also after a reload.
    await page.getByRole('combobox', { name: 'Customer' }).selectOption('acme-corp');
    await page.getByRole('button', { name: 'Alerts', exact: true }).waitFor();
    t.equal(await page.getByRole('combobox', { name: 'Billing account' }).inputValue(), ACME.billingAccountId, 'back on acme: its first account');
  });

  t.test('admin on a narrow window: acting for acme-corp', async (t) => {
    const context = await browser.newContext({ viewport: { width: 1024, height: 900 } });
    t.teardown(() => context.close());
    const page = await context.newPage();
    await signIn(page, base, 'admin@commandcenter.local');
    // an admin lands on the operations inbox; the dashboard is the root
    await page.waitForURL(`${base}/operations`);
    await page.goto(base);
    await page.getByRole('combobox', { name: 'Customer' }).selectOption('acme-corp');
    await chartDrawn(page);
    for (const name of ['Viewers', 'Alerts', 'Export', 'Settings']) {
      t.equal(await page.getByRole('button', { name, exact: true }).count(), 1, `${name} icon for admin`);
    }
    await page.getByRole('button', { name: 'Alerts', exact: true }).click();
    await page.waitForURL(`${base}/billing/alerts`);
    t.pass('Alerts goes to /billing/alerts');
    await page.goBack();
    await page.getByRole('button', { name: 'Viewers', exact: true }).click();
    await page.waitForURL(`${base}/billing/viewers`);
    t.pass('Viewers goes to /billing/viewers');
    await page.goBack();
    await chartDrawn(page);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/billing-admin-narrow.png`, fullPage: true });
  });

  t.test('bob: a customer without a billing account', async (t) => {
    const context = await browser.newContext();
    t.teardown(() => context.close());
    const page = await context.newPage();
    await signIn(page, base, 'bob@initech.example');
    await page.getByText('Missing Billing Account. Please contact your system administrator.').waitFor();
    t.pass('the missing-billing-account state shows');
  });
});
