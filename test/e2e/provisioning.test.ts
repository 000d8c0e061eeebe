/**
 * Project provisioning in Chromium over the real api, the provisioning worker on the local cloud and notify over
 * SMTP: a customer fills 'New Project' (the derived id and label are shown) twice, an admin approves both in the
 * confirmation dialog, and the rows move to Active. Screenshots land in test-results/screenshots/provisioning-*.png.
 */
import t from 'tap';
import type { Page } from 'playwright-core';
import { countLocalCloud } from '@cc/shared/db/local-cloud.ts';
import { buildHandlers } from '../../workers/src/handlers.ts';
import { localProvisioning } from '../../workers/src/adapters/provisioning/local.ts';
import { startLocalSmtpServer } from '../../workers/src/mail/local-smtp-server.ts';
import { smtpMailer } from '../../workers/src/mail/smtp-mailer.ts';
import { startWorkers } from '../../workers/src/worker-host.ts';
import { REDIS_URL } from '../db.ts';
import { SCREENSHOT_DIR, signIn, startProduct } from './harness.ts';

const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOT_DIR}/provisioning-${name}.png`, fullPage: true });

/** PROVISIONING_LOCAL_DELAY_MS of this run: the local cloud's creation operations finish quickly. */
const LOCAL_DELAY_MS = 300;

async function requestProject(page: Page, base: string, choice: { bu: string; product: string; env: string }, expectedId: string) {
  await page.goto(`${base}/projectprovisioning/new`);
  await page.getByRole('heading', { name: 'New Project' }).waitFor();
  await page.getByLabel('Business Unit').selectOption(choice.bu);
  await page.getByLabel('Product').selectOption(choice.product);
  await page.getByLabel('Environment').selectOption(choice.env);
  await page.getByLabel('Cost Owner').selectOption('alice');
  await page.getByLabel('Project Template').selectOption('Standard analytics project');
  await page.getByTestId('project-id').filter({ hasText: expectedId }).waitFor();
}

t.test('a customer requests two projects, an admin approves them, they become Active', async (t) => {
  const { base, browser, app } = await startProduct(t);
  const { pool, config } = app.env;
  const smtp = await startLocalSmtpServer(pool, 0);
  t.teardown(() => smtp.close());
  const queues = ['provisioning', 'notify'] as const;
  const host = await startWorkers({
    redisUrl: REDIS_URL,
    prefix: config.QUEUE_PREFIX,
    queues,
    handlers: buildHandlers(queues, {
      pool,
      mailer: smtpMailer(`smtp://127.0.0.1:${smtp.port}`, config.MAIL_FROM),
      mailDomain: 'commandcenter.test',
      enqueue: app.producers.enqueue,
      publicUrl: base,
      provisioning: { cloud: localProvisioning(pool, { operationDelayMs: LOCAL_DELAY_MS }), cpuRegion: 'europe-west1', pollIntervalMs: 100, maxPolls: 50 },
    }),
  });
  t.teardown(() => host.close());

  // The customer: Save without choices, then two requests.
  const customer = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  await signIn(customer, base, 'alice@acme.example');
  await customer.getByRole('navigation', { name: 'Side menu' }).waitFor();
  await customer.goto(`${base}/projectprovisioning/new`);
  await customer.getByRole('button', { name: 'Save' }).click();
  t.equal(await customer.getByText('This field is required').count(), 5, 'every select is required');
  await shot(customer, 'new-required');

  await requestProject(customer, base, { bu: 'retail', product: 'webshop', env: 'dev' }, 'acme-retail-webshop-dev');
  t.equal(await customer.getByTestId('project-label').textContent(), 'cost-owner = alice', 'the owner label is the cost owner');
  await customer.getByText('1,000.00').first().waitFor();
  await shot(customer, 'new-filled');
  await customer.getByRole('button', { name: 'Save' }).click();
  await customer.getByText('Project successfully created').waitFor();
  await customer.waitForURL(`${base}/projectprovisioning`);

  await requestProject(customer, base, { bu: 'retail', product: 'webshop', env: 'prod' }, 'acme-retail-webshop-prod');
  await customer.getByRole('button', { name: 'Save' }).click();
  await customer.waitForURL(`${base}/projectprovisioning`);
  await customer.getByRole('cell', { name: 'acme-retail-webshop-prod' }).waitFor();
  t.equal(await customer.getByRole('button', { name: 'Approve' }).count(), 0, 'customers do not approve');

  // The id is taken now: the form says so before Save.
  await requestProject(customer, base, { bu: 'retail', product: 'webshop', env: 'dev' }, 'acme-retail-webshop-dev');
  await customer.getByText("A request for project 'acme-retail-webshop-dev' already exists").waitFor();
  t.ok(await customer.getByRole('button', { name: 'Save' }).isDisabled(), 'no Save with a taken id');
  await shot(customer, 'new-taken');

  // The admin approves both in the dialog.
  const admin = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  await signIn(admin, base, 'admin@commandcenter.local');
  await admin.getByRole('navigation', { name: 'Side menu' }).waitFor();
  await admin.goto(`${base}/projectprovisioning`);
  for (const name of ['acme-retail-webshop-dev', 'acme-retail-webshop-prod']) await admin.getByRole('checkbox', { name: `Select ${name}` }).check();
  await admin.getByRole('button', { name: 'Approve' }).click();
  const dialog = admin.getByRole('alertdialog');
  await dialog.getByText('Please confirm to approve the following 2 projects').waitFor();
  t.ok(await dialog.getByText('acme-retail-webshop-dev (analytics)').isVisible(), 'the dialog lists project and folder');
  await shot(admin, 'approve-dialog');
  await dialog.getByRole('button', { name: 'Submit' }).click();

  // The rows move on by themselves (the list polls while a row is being created).
  const active = admin.getByRole('cell', { name: 'Active', exact: true });
  await active.nth(1).waitFor({ timeout: 60_000 });
  t.equal(await active.count(), 2, 'both rows are Active');
  await shot(admin, 'list-active');
  await customer.goto(`${base}/projectprovisioning`);
  await customer.getByRole('cell', { name: 'Active', exact: true }).nth(1).waitFor();
  await shot(customer, 'list-customer');

  t.same(await countLocalCloud(pool, 'acme-retail-webshop-prod'), { projects: 1, budgets: 1, billing_links: 1, quotas: 2, owners: ['user:alice@acme.example'] });
  const deadline = Date.now() + 20_000;
  let subjects: string[] = [];
  while (Date.now() < deadline && subjects.length < 4) {
    subjects = (await pool.query<{ subject: string }>(`SELECT subject FROM mail_message WHERE 'alice@acme.example' = ANY(rcpt_to) AND subject LIKE 'Project %' ORDER BY subject`)).rows.map((r) => r.subject);
    await new Promise((r) => setTimeout(r, 250));
  }
  t.same(subjects, [
    'Project acme-retail-webshop-dev approved',
    'Project acme-retail-webshop-dev successfully created',
    'Project acme-retail-webshop-prod approved',
    'Project acme-retail-webshop-prod successfully created',
  ]);
});
