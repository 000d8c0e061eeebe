/**
 * System Health in Chromium over the real api and a monitoring worker (MONITORING=local): before Initialize the
 * screen says monitoring is not implemented; the credentials toggle, show/hide password, Initialize and Rebuild
 * Dashboard; the 710 px iframe showing the built-in dashboard with the customer's figures; a failed run's detail in
 * a browser alert. Screenshots land in test-results/screenshots/systemhealth-*.png.
 */
import t from 'tap';
import type { Page } from 'playwright-core';
import { addDays, billingToday } from '@cc/shared/time.ts';
import { secretBoxFromConfig } from '@cc/shared/secrets-key.ts';
import { findMonitoringPassword } from '@cc/shared/db/monitoring.ts';
import { gcpGeneratedSource } from '@cc/shared/adapters/bigquery/local.ts';
import { runIngest } from '../../workers/src/billing-ingest/ingest.ts';
import { buildHandlers } from '../../workers/src/handlers.ts';
import { startWorkers } from '../../workers/src/worker-host.ts';
import { localMonitoringService } from '@cc/shared/adapters/monitoring/local.ts';
import { cloudProjectsFromConfig } from '@cc/shared/adapters/cloud-projects/from-config.ts';
import { REDIS_URL } from '../db.ts';
import { SCREENSHOT_DIR, signIn, startProduct } from './harness.ts';

const ACME = { customerId: 'acme-corp', billingAccountId: '01A2B3-C4D5E6-F7A8B9' };
const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOT_DIR}/systemhealth-${name}.png`, fullPage: true });

t.test('System Health in Chromium', async (t) => {
  const { base, browser, app } = await startProduct(t);
  const { pool, config } = app.env;
  const today = billingToday();
  await runIngest({ pool, ...ACME, sourceKind: 'gcp-generated', source: gcpGeneratedSource({ ...ACME, currency: 'EUR', from: addDays(today, -35), to: today }) });
  const { rows: projects } = await pool.query<{ project_id: string; project_name: string }>(
    `SELECT DISTINCT project_id, project_name FROM cost_daily WHERE customer_id = 'acme-corp' AND project_id <> '' ORDER BY project_id`,
  );
  t.ok(projects.length >= 2, `${projects.length} billed projects`);

  const host = await startWorkers({
    redisUrl: REDIS_URL,
    prefix: config.QUEUE_PREFIX,
    queues: ['monitoring'],
    handlers: buildHandlers(['monitoring'], {
      pool,
      monitoringService: localMonitoringService(),
      secretBox: secretBoxFromConfig(config),
      cloudProjects: cloudProjectsFromConfig(config, pool),
    }),
  });
  let workerRunning = true;
  t.teardown(() => workerRunning && host.close());

  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  t.teardown(() => context.close());
  const page = await context.newPage();
  await signIn(page, base, 'alice@acme.example');
  await page.getByRole('navigation', { name: 'Side menu' }).getByRole('link', { name: 'System Health' }).click();
  await page.getByRole('heading', { name: 'System Health', level: 1 }).waitFor();

  await page.getByText('Monitoring not implemented for this customer').waitFor();
  t.pass('before Initialize: the password fetch fails and the screen says so');
  t.equal(await page.locator('iframe').count(), 0, 'no dashboard yet');
  t.equal(await page.getByRole('region', { name: 'Credentials' }).count(), 0, 'the panel starts hidden');

  const toggle = page.getByRole('button', { name: 'Credentials', exact: true });
  t.equal(await toggle.getAttribute('aria-pressed'), 'false');
  await toggle.click();
  t.equal(await toggle.getAttribute('aria-pressed'), 'true', 'the toggle is on');
  const panel = page.getByRole('region', { name: 'Credentials' });
  await panel.waitFor();
  const userId = panel.getByRole('textbox', { name: 'User ID' });
  t.equal(await userId.inputValue(), 'Acme Corp', 'the user ID is the customer name');
  t.ok(await userId.evaluate((el) => (el as HTMLInputElement).readOnly), 'read-only');
  t.equal(await panel.getByTestId('service-account-email').innerText(), 'commandcenter@acme-corp-ops.iam.gserviceaccount.com');
  const headers = (await panel.getByRole('columnheader').allInnerTexts()).map((s) => s.trim());
  t.same(headers, ['Project Name', 'Project Id']);
  await panel.getByRole('row').filter({ hasText: projects[0].project_id }).waitFor();
  t.match(await panel.getByRole('row').filter({ hasText: projects[0].project_id }).innerText(), projects[0].project_name);
  t.ok(await panel.getByRole('button', { name: 'Rebuild Dashboard' }).isDisabled(), 'nothing to rebuild yet');
  await shot(page, 'credentials-before-initialise');

  // Initialize Dashboard: the saving indicator shows while the job runs, then the password and the dashboard.
  // A fast job shows the indicator for less than Playwright's polling interval: the page itself records that it
  // appeared (a MutationObserver set up before the click), so a short showing is not missed.
  await page.evaluate(() => {
    const w = window as unknown as { sawSaving?: boolean };
    w.sawSaving = document.querySelector('[role="status"][aria-label="Saving"]') !== null;
    new MutationObserver(() => {
      if (document.querySelector('[role="status"][aria-label="Saving"]')) w.sawSaving = true;
    }).observe(document.body, { childList: true, subtree: true });
  });
  await panel.getByRole('button', { name: 'Initialize Dashboard' }).click();
  await page.waitForFunction(() => (window as unknown as { sawSaving?: boolean }).sawSaving === true, undefined, { timeout: 10_000 });
  t.pass('the saving indicator showed while the job ran');
  await page.getByRole('status', { name: 'Saving' }).waitFor({ state: 'detached' });
  const password = page.getByRole('textbox', { name: 'Password' }).or(panel.getByLabel('Password'));
  const stored = (await findMonitoringPassword(pool, secretBoxFromConfig(config), 'acme-corp'))!;
  t.match(stored, /^.{24}$/);
  await page.waitForFunction(() => (document.querySelector('input[type="password"]') as HTMLInputElement | null)?.value.length === 24);
  const field = panel.locator('input[type="password"]');
  t.equal(await field.inputValue(), stored, 'the panel holds the stored password, hidden');

  await panel.getByRole('button', { name: 'Show password' }).click();
  t.equal(await password.first().getAttribute('type'), 'text', 'shown');
  t.equal(await password.first().inputValue(), stored);
  await shot(page, 'password-shown');
  await panel.getByRole('button', { name: 'Hide password' }).click();
  t.equal(await panel.locator('input[type="password"]').count(), 1, 'hidden again');

  // The dashboard: the built-in page in kiosk mode, 710 px high, with the customer's figures.
  const iframe = page.locator('iframe[title="System Health dashboard of Acme Corp"]');
  await iframe.waitFor();
  t.equal(await iframe.getAttribute('height'), '710');
  t.equal(Math.round((await iframe.boundingBox())!.height), 710, '710 px on screen');
  t.equal(await iframe.getAttribute('src'), '/systemhealth/kiosk/acme-corp?kiosk&_dash.hideTimePicker=true&_dash.hideVariables=true');
  const frame = page.frameLocator('iframe[title="System Health dashboard of Acme Corp"]');
  await frame.getByRole('main', { name: 'System Health dashboard' }).waitFor();
  t.equal(await frame.getByRole('navigation', { name: 'Side menu' }).count(), 0, 'no app shell inside the frame');
  await frame.locator('[data-testid="health-chart"] .main-svg').first().waitFor();
  const spendChart = frame.getByRole('img', { name: /against the 28-day mean chart/ });
  // horizontal bars: the projects are the y axis
  await spendChart.locator('.ytick').first().waitFor();
  const ticks = (await spendChart.locator('.ytick text').allTextContents()).map((x) => x.trim());
  t.ok(ticks.length >= 2, `the spend chart has a bar group per project: ${ticks.join(', ')}`);
  const names = projects.map((p) => p.project_name || p.project_id);
  t.ok(ticks.length > 0 && ticks.every((x) => names.includes(x)), 'labelled with the billed projects');
  t.ok((await spendChart.locator('.point path').count()) >= 2, 'bars drawn');
  await frame.getByRole('table', { name: /Billing data freshness/ }).or(frame.getByText('Billing data freshness')).first().waitFor();
  t.match(await frame.locator('main').innerText(), new RegExp(ACME.billingAccountId), 'freshness lists the billing account');
  await page.waitForTimeout(500);
  await shot(page, 'dashboard');

  // Rebuild Dashboard keeps the password.
  await panel.getByRole('button', { name: 'Rebuild Dashboard' }).click();
  const rebuilt = async () => (await pool.query(`SELECT rebuilt_at IS NOT NULL AS done FROM monitoring_account WHERE customer_id = 'acme-corp'`)).rows[0]?.done === true;
  for (let i = 0; i < 100 && !(await rebuilt()); i++) await page.waitForTimeout(100);
  t.ok(await rebuilt(), 'the rebuild ran');
  await page.getByRole('status', { name: 'Saving' }).waitFor({ state: 'detached' });
  t.equal(await panel.locator('input[type="password"]').inputValue(), stored, 'same password after Rebuild');

  // A run that cannot happen: the server's detail in a browser alert (spec 000 §8).
  await host.close();
  workerRunning = false;
  // The alert is answered in its own handler: an open alert blocks the page, and a click that is still waiting for the
  // page to settle would wait for it (seen once as a 30 s click timeout).
  const seen = new Promise<{ type: string; message: string }>((resolve) => {
    page.once('dialog', (alert) => {
      resolve({ type: alert.type(), message: alert.message() });
      void alert.dismiss();
    });
  });
  await panel.getByRole('button', { name: 'Rebuild Dashboard' }).click({ noWaitAfter: true });
  const alert = await seen;
  t.equal(alert.type, 'alert');
  t.equal(alert.message, 'No worker is running the monitoring queue; try again later');
  await shot(page, 'after-alert');
});
