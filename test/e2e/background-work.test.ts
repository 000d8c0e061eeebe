/**
 * Actions that start background work show it running and refresh what they change when it ends, without a reload:
 * "Run sync now" on an empty inventory fills the tables and enables Visualize Inventory; System Health's Initialize
 * and Rebuild say so when done, and Initialize is off once the dashboard exists. A real worker runs the jobs.
 * Screenshots: test-results/screenshots/background-*.png.
 */
import t from 'tap';
import { secretBoxFromConfig } from '@cc/shared/secrets-key.ts';
import { buildHandlers } from '../../workers/src/handlers.ts';
import { startWorkers } from '../../workers/src/worker-host.ts';
import { localInventorySource } from '@cc/shared/adapters/inventory/local.ts';
import { localMonitoringService } from '@cc/shared/adapters/monitoring/local.ts';
import { cloudProjectsFromConfig } from '@cc/shared/adapters/cloud-projects/from-config.ts';
import { billProjects } from '../inventory-fixtures.ts';
import { REDIS_URL } from '../db.ts';
import { SCREENSHOT_DIR, signIn, startProduct } from './harness.ts';

t.test('background work refreshes the screen when it ends', async (t) => {
  const { base, browser, app } = await startProduct(t);
  const { pool, config } = app.env;
  await billProjects(pool, [['acme-shop-prod', 'Webshop'], ['acme-lab-dev', 'Lab']]);
  const host = await startWorkers({
    redisUrl: REDIS_URL,
    prefix: config.QUEUE_PREFIX,
    queues: ['inventory-sync', 'monitoring'],
    handlers: buildHandlers(['inventory-sync', 'monitoring'], {
      pool,
      inventorySource: localInventorySource(pool),
      enqueue: app.producers.enqueue,
      monitoringService: localMonitoringService(),
      secretBox: secretBoxFromConfig(config),
      cloudProjects: cloudProjectsFromConfig(config, pool),
    }),
  });
  t.teardown(() => host.close());
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  t.teardown(() => context.close());
  const page = await context.newPage();
  await signIn(page, base, 'admin@commandcenter.local');
  await page.getByRole('navigation', { name: 'Side menu' }).waitFor();

  await t.test('Run sync now fills the inventory without a reload', async (t) => {
    await page.goto(`${base}/inventory`);
    await page.getByText(/No inventory yet\. The first sync runs /).waitFor();
    t.ok(await page.getByRole('button', { name: 'Visualize Inventory' }).isDisabled(), 'nothing to visualise yet');
    await page.getByRole('button', { name: 'Run sync now' }).click();
    await page.getByRole('heading', { name: 'Google Cloud Inventory' }).waitFor({ timeout: 15_000 });
    t.pass('the tables appear when the sync ends');
    await page.getByRole('button', { name: 'Visualize Inventory' }).and(page.locator(':enabled')).waitFor();
    t.pass('Visualize Inventory is enabled');
    await page.getByText(/^Last synced /).waitFor();
    await page.screenshot({ path: `${SCREENSHOT_DIR}/background-inventory-synced.png`, fullPage: true });

    // A second run: the screen says it runs, then the tables are read again.
    await page.getByRole('button', { name: 'Run sync now' }).click();
    await page.getByText('Inventory sync started').waitFor();
    await page.getByRole('button', { name: 'Run sync now' }).and(page.locator(':enabled')).waitFor({ timeout: 15_000 });
    t.pass('the button is busy while the sync runs, and free again when it ends');
  });

  await t.test('System Health: Initialize and Rebuild confirm, Initialize is off once done', async (t) => {
    await page.goto(`${base}/systemhealth`);
    await page.getByRole('heading', { name: 'System Health', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Credentials', exact: true }).click();
    const panel = page.getByRole('region', { name: 'Credentials' });
    await panel.getByRole('button', { name: 'Initialize Dashboard' }).click();
    await page.getByText('Dashboard initialized').waitFor({ timeout: 15_000 });
    t.pass('Initialize says it is done');
    await page.locator('iframe[title^="System Health dashboard of"]').waitFor();
    t.pass('the dashboard shows without a reload');
    t.ok(await panel.getByRole('button', { name: 'Initialize Dashboard' }).isDisabled(), 'Initialize is off once the dashboard exists');
    await panel.getByRole('button', { name: 'Rebuild Dashboard' }).click();
    await page.getByText('Dashboard rebuilt').waitFor({ timeout: 15_000 });
    t.pass('Rebuild says it is done');
    await page.screenshot({ path: `${SCREENSHOT_DIR}/background-systemhealth-rebuilt.png`, fullPage: true });
  });
});
