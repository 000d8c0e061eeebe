/**
 * The provider's console in Chromium: an admin opens Operations from the menu, approves a project request (with the
 * provisioning screen's confirmation) and a license order in place, and both leave the inbox; the spend overview
 * shows every customer with the provider-currency total and a row opens that customer's billing dashboard. A
 * customer and a viewer are refused both screens. Screenshots: test-results/screenshots/operations-*.png.
 */
import t from 'tap';
import type { Page } from 'playwright-core';
import type { CostRow } from '@cc/shared/ports/billing-source.ts';
import { saveRates } from '@cc/shared/db/fx-rates.ts';
import { addDays, billingToday } from '@cc/shared/time.ts';
import { runIngest } from '../../workers/src/billing-ingest/ingest.ts';
import { SCREENSHOT_DIR, signIn, startProduct } from './harness.ts';
import { bearer, login } from '../helper.ts';

const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOT_DIR}/operations-${name}.png`, fullPage: true });
const today = billingToday();
const days = Array.from({ length: 40 }, (_, i) => addDays(today, i - 40));

const ACCOUNTS = [
  { customer: 'acme-corp', account: '01A2B3-C4D5E6-F7A8B9', currency: 'EUR' },
  { customer: 'globex', account: '02B3C4-D5E6F7-A8B9C0', currency: 'USD' },
];

t.test('an admin decides a project request and a license order from the operations inbox', async (t) => {
  const { base, browser, app } = await startProduct(t);
  const pool = app.env.pool;
  // a month of spend and the rates converting it, so the spend overview has figures
  const rateDays = Array.from({ length: 60 }, (_, i) => addDays(today, i - 60)).filter((d) => ![0, 6].includes(new Date(`${d}T00:00:00Z`).getUTCDay()));
  await saveRates(pool, 'ecb', rateDays.map((d, i) => ({ currency: 'USD', rate_date: d, rate: `1.0${500 + i}` })));
  for (const [n, a] of ACCOUNTS.entries()) {
    const rows = days.map((day, i): CostRow => ({
      provider: 'gcp', provider_name: 'Google Cloud', usage_date: day, project_id: `${a.customer}-web`, project_name: 'Web', service: 'Compute Engine', sku: 'vCPU',
      cost: `${100 + ((i * 37 + n * 11) % 60)}.25`, credits: '0', currency: a.currency, invoice_month: null, cost_type: 'usage', project_labels: {}, resource_labels: {},
    }));
    await runIngest({ pool, customerId: a.customer, billingAccountId: a.account, sourceKind: 'focus-file', fileName: `${a.customer}.csv`, source: { label: 'e2e', async *rows() { let line = 1; for (const row of rows) yield { line: ++line, row }; } } });
  }

  // alice asks for a project and orders licenses through the api, as her screens would
  const alice = bearer(await login(app, 'alice@acme.example'));
  const created = await app.inject({ method: 'POST', url: '/v1/asset-inventory/project/create', headers: alice, payload: { customer_id: 'acme-corp', bu: 'retail', product: 'webshop', env: 'dev', owner_value: 'alice', template_name: 'Standard analytics project' } });
  t.equal(created.statusCode, 201);
  await app.inject({ method: 'PUT', url: '/v1/licenses/acme.example', headers: alice, payload: { sku_id: '1010020028', threshold: 5, auto_order: false, new_order: 1 } });
  const placed = await app.inject({ method: 'PUT', url: '/v1/licenses/orders/acme.example', headers: alice, payload: { sku_id: '1010020028', customer_id: 'acme-corp', order_amount: 3, comment: 'new hires' } });
  t.equal(placed.statusCode, 201, 'order placed');

  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
  t.teardown(() => context.close());
  const page = await context.newPage();
  await signIn(page, base, 'admin@commandcenter.local');
  // the admin's landing page: the inbox, not the Billing dashboard
  await page.getByRole('heading', { name: 'Operations', exact: true }).waitFor();
  t.equal(new URL(page.url()).pathname, '/operations', 'an admin lands on /operations after signing in');
  const menu = page.getByRole('navigation', { name: 'Side menu' });
  await menu.getByRole('link', { name: /^Operations/ }).click();
  await page.getByRole('heading', { name: 'Operations', exact: true }).waitFor();
  const request = page.getByRole('row').filter({ hasText: 'Project request acme-retail-webshop-dev awaits approval' });
  await request.waitFor();
  const order = page.getByRole('row').filter({ hasText: 'License order of 3 Google Workspace Business Standard' });
  await order.waitFor();
  t.ok(await page.getByRole('row').filter({ hasText: 'Acme Corp' }).first().isVisible(), 'items name their customer');
  await shot(page, 'inbox');

  await request.getByRole('button', { name: 'Approve acme-retail-webshop-dev' }).click();
  const dialog = page.getByRole('alertdialog');
  await dialog.getByText('Please confirm to approve the following 1 projects').waitFor();
  t.ok(await dialog.getByText('acme-retail-webshop-dev (analytics)').isVisible(), 'the provisioning screen’s confirmation, listing project and folder');
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await request.waitFor({ state: 'detached' });
  t.pass('the approved request left the inbox');

  await order.getByRole('button', { name: 'Approve the order of 3 Google Workspace Business Standard' }).click();
  await order.waitFor({ state: 'detached' });
  t.pass('the approved order left the inbox');
  const { rows: decided } = await pool.query<{ state: string }>(`SELECT state FROM project_request UNION ALL SELECT status FROM license_order`);
  t.notOk(decided.some((r) => r.state === 'Pending' || r.state === 'Pending approval'), 'nothing left pending');

  await page.goto(`${base}/operations/spend`);
  await page.getByRole('heading', { name: 'All customers’ spend' }).waitFor();
  const total = page.getByRole('definition').first();
  await page.getByRole('row').filter({ hasText: 'Globex Corporation' }).waitFor();
  t.match(await total.innerText(), /€/, 'the total is in the provider currency (EUR)');
  // the sums stop before today's billing day: the subtitle names the last day in them, not today
  const yesterday = addDays(billingToday(), -1);
  t.ok(await page.getByText(`Month to date up to yesterday (${yesterday}, US/Pacific)`).isVisible(), `the subtitle names yesterday, ${yesterday}`);
  await shot(page, 'spend');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export' }).click();
  const csv = await (await download).createReadStream().then(async (stream) => {
    let text = '';
    for await (const chunk of stream) text += chunk;
    return text;
  });
  t.match(csv.split('\r\n')[0], /^Customer,Currency,Month to date,Forecast,Last month at the same day,Change %,Month to date \(EUR\),Forecast \(EUR\)/, 'the export has every column');
  t.match(csv, /\r\nTotal,EUR,,,,,\d+\.\d{2},\d+\.\d{2},/, 'and the total row in the provider currency');
  await page.getByRole('row').filter({ hasText: 'Globex Corporation' }).click();
  await page.getByRole('heading', { name: 'Billing', exact: true }).waitFor();
  t.equal(await page.getByRole('combobox', { name: 'Customer' }).inputValue(), 'globex', 'the row opened Globex’s billing dashboard');

  for (const email of ['alice@acme.example', 'victor@acme.example']) {
    const other = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    t.teardown(() => other.close());
    const p = await other.newPage();
    await signIn(p, base, email);
    await p.getByRole('navigation', { name: 'Side menu' }).waitFor();
    // customers and viewers keep landing on the Billing dashboard
    await p.getByRole('heading', { name: 'Billing', exact: true }).waitFor();
    t.equal(new URL(p.url()).pathname, '/', `${email} lands on the Billing dashboard`);
    t.equal(await p.getByRole('navigation', { name: 'Side menu' }).getByRole('link', { name: /^Operations/ }).count(), 0, `${email}: no Operations item`);
    for (const path of ['/operations', '/operations/spend']) {
      await p.goto(`${base}${path}`);
      await p.getByText('You do not have access to this page').waitFor();
      t.pass(`${email} is refused ${path}`);
    }
  }
});
