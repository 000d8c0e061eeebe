/**
 * Workspace License and Playbook in Chromium over the real api and the license worker (local Workspace tenant):
 * create a license, raise its threshold with auto order on so the worker orders, see the order in Orders, approve it
 * as an admin, see it in History; open a playbook document from the list in a new tab.
 * Screenshots land in test-results/screenshots/licenses-*.png.
 */
import t from 'tap';
import type { Page } from 'playwright-core';
import { localWorkspace } from '@cc/shared/adapters/workspace/local.ts';
import { buildHandlers } from '../../workers/src/handlers.ts';
import { startWorkers } from '../../workers/src/worker-host.ts';
import { REDIS_URL } from '../db.ts';
import { SCREENSHOT_DIR, signIn, startProduct } from './harness.ts';

const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOT_DIR}/licenses-${name}.png`, fullPage: true });
const SKU = '1010020028';

t.test('licenses: create, auto order, approve, history; playbook preview', async (t) => {
  const { base, browser, app } = await startProduct(t);
  const { pool, config } = app.env;
  // The built-in runbooks for Acme (its seeded drive folder does not exist on this machine).
  await pool.query(`UPDATE customer SET drive_id = '' WHERE customer_id = 'acme-corp'`);
  const host = await startWorkers({
    redisUrl: REDIS_URL,
    prefix: config.QUEUE_PREFIX,
    queues: ['license'],
    handlers: buildHandlers(['license'], { pool, workspace: localWorkspace(pool), enqueue: app.producers.enqueue, publicUrl: base }),
  });
  t.teardown(() => host.close());

  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  t.teardown(() => context.close());
  const page = await context.newPage();
  await signIn(page, base, 'alice@acme.example');
  await page.getByRole('link', { name: 'Workspace License' }).click();
  await page.getByRole('tab', { name: 'Existing' }).waitFor();

  // Create: the SKU is chosen among the domain's subscriptions; a threshold of 0 is refused ('Must be above 0').
  await page.getByRole('button', { name: 'Create License' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create License' });
  await dialog.getByLabel('Threshold').fill('0');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await dialog.getByText('Must be above 0').first().waitFor();
  await dialog.getByLabel('SKU Id').selectOption(SKU);
  await dialog.getByLabel('Threshold').fill('5');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await page.getByText('License was successfully created!').waitFor();
  const row = page.getByRole('row').filter({ hasText: 'Google Workspace Business Standard' });
  await row.getByRole('cell', { name: '8', exact: true }).waitFor();
  await shot(page, 'existing');

  // Update: disabled until something differs; auto order on, threshold above what is available.
  await page.getByRole('button', { name: 'Update Google Workspace Business Standard' }).click();
  const update = page.getByRole('button', { name: 'Update', exact: true });
  t.ok(await update.isDisabled(), 'Update is disabled until a value differs');
  await page.getByLabel('Threshold').fill('10');
  await page.getByLabel('Auto Order').check();
  t.equal(await page.getByLabel('New Order').inputValue(), '1', 'toggling auto order resets new order to 1');
  await page.getByLabel('New Order').fill('4');
  await shot(page, 'update');
  await update.click();
  await page.getByText('License updated').waitFor();

  // The worker ordered: 8 available <= 10.
  await page.getByRole('tab', { name: 'Orders' }).click();
  const orderRow = page.getByRole('row').filter({ hasText: 'auto-order' });
  await orderRow.getByText('Pending').waitFor({ timeout: 20_000 });
  await shot(page, 'orders');
  t.ok(await orderRow.getByText('Automatic order: 8 of 50 seats available, at or below the threshold of 10').isVisible(), 'the reason is in the comment');

  // An admin approves it.
  const adminPage = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
  t.teardown(() => adminPage.context().close());
  await signIn(adminPage, base, 'admin@commandcenter.local');
  await adminPage.getByRole('link', { name: 'Workspace License' }).click();
  await adminPage.getByRole('tab', { name: 'Orders' }).click();
  await adminPage.getByRole('button', { name: /^Manage Order/ }).first().click();
  await adminPage.getByRole('button', { name: 'Approve' }).waitFor();
  // The card has slid in (250 ms) before the picture.
  await adminPage.waitForTimeout(400);
  await shot(adminPage, 'manage-order');
  await adminPage.getByRole('button', { name: 'Approve' }).click();
  await adminPage.getByText('Action successful').waitFor();
  await adminPage.getByRole('tab', { name: 'History' }).click();
  await adminPage.getByText('order: Approved → Fulfilled (4 seats)').waitFor();
  await adminPage.getByText('volume_total: 50 → 54').first().waitFor();
  await shot(adminPage, 'history');

  // Orders and History page through the server: 20 older orders more, pages of 10 asked for with limit and offset,
  // the count of all from X-Total-Count.
  await pool.query(
    `INSERT INTO license_order (customer_id, sku_id, sku_name, order_amount, order_by, comment, status, order_time)
     SELECT 'acme-corp', $1, 'Google Workspace Business Standard', 1, 'alice@acme.example', 'older order ' || i, 'Rejected', now() - (i || ' days')::interval
       FROM generate_series(1, 20) i`,
    [SKU],
  );
  const asked: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/v1/licenses/orders/history/') || r.url().includes('/v1/licenses/history/')) asked.push(new URL(r.url()).search);
  });
  await page.reload();
  await page.getByRole('tab', { name: 'Orders' }).click();
  const pager = page.getByRole('navigation', { name: 'Pagination' });
  await pager.getByText('1–10 of 21').waitFor();
  t.equal(await page.getByRole('button', { name: /^Manage Order/ }).count(), 10, 'one page of 10 rows');
  await pager.getByRole('button', { name: 'Next page' }).click();
  await pager.getByText('11–20 of 21').waitFor();
  await page.getByRole('row').filter({ hasText: 'older order 10' }).waitFor();
  await pager.getByRole('button', { name: 'Next page' }).click();
  await pager.getByText('21–21 of 21').waitFor();
  await page.getByRole('row').filter({ hasText: 'older order 20' }).waitFor();
  t.ok(asked.includes('?limit=10&offset=20'), `the last page asked of the server: ${asked.join(' ')}`);
  await page.getByRole('tab', { name: 'History' }).click();
  await pager.getByLabel('Rows per page').selectOption('50');
  await pager.getByText(/^1–\d+ of \d+$/).waitFor();
  t.ok(asked.some((q) => q === '?limit=50&offset=0'), 'History asks for pages of 50');

  // Playbook: the list, and a document previewed in a new tab.
  await page.getByRole('link', { name: 'Playbook' }).click();
  const link = page.getByRole('link', { name: 'Raising a P1' });
  await link.waitFor();
  await shot(page, 'playbook');
  const [preview] = await Promise.all([context.waitForEvent('page'), link.click()]);
  // markdown opens rendered in the app, not as raw text
  await preview.getByRole('heading', { name: 'Before you raise it' }).waitFor();
  t.equal(await preview.getByTestId('playbook-document').getByRole('heading', { name: 'Raising a P1' }).count(), 1);
  await shot(preview, 'playbook-preview');
});
