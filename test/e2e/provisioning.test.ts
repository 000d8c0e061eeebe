/**
 * Project provisioning in Chromium over the real api, the provisioning worker on the local cloud and notify over
 * SMTP: a customer fills 'New Project' (the derived id and label are shown) twice, an admin approves both in the
 * confirmation dialog, and the rows move to Active; then the admin rejects a request, and retries one that failed
 * (its project id was held by a project CommandCenter did not create) once the id is free.
 * Screenshots land in test-results/screenshots/provisioning-*.png.
 */
import t, { type Test } from 'tap';
import type { Page } from 'playwright-core';
import { countLocalCloud, insertLocalProject } from '@cc/shared/db/local-cloud.ts';
import { buildHandlers } from '../../workers/src/handlers.ts';
import { localProvisioning } from '@cc/shared/adapters/provisioning/local.ts';
import { startLocalSmtpServer } from '@cc/shared/adapters/mail/local-smtp-server.ts';
import { smtpMailer } from '@cc/shared/adapters/mail/smtp-mailer.ts';
import { startWorkers } from '../../workers/src/worker-host.ts';
import { REDIS_URL } from '../db.ts';
import { SCREENSHOT_DIR, signIn, startProduct } from './harness.ts';

const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOT_DIR}/provisioning-${name}.png`, fullPage: true });

/** PROVISIONING_LOCAL_DELAY_MS of this run: the local cloud's creation operations finish quickly. */
const LOCAL_DELAY_MS = 300;

/** Selects the rows, opens the admin's decision and submits its dialog (checking its title). */
async function decide(t: Test, page: Page, decision: 'Approve' | 'Reject' | 'Retry', names: string[], title: string, screenshot?: string) {
  for (const name of names) await page.getByRole('checkbox', { name: `Select ${name}` }).check();
  await page.getByRole('button', { name: decision, exact: true }).click();
  const dialog = page.getByRole('alertdialog');
  await dialog.getByText(title).waitFor();
  t.ok(await dialog.getByText(`${names[0]} (analytics)`).isVisible(), `the ${decision} dialog lists project and folder`);
  if (screenshot) await shot(page, screenshot);
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await dialog.waitFor({ state: 'detached' });
}

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
  await customer.getByRole('rowheader', { name: 'acme-retail-webshop-prod' }).waitFor();
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
  await admin.getByRole('rowheader', { name: 'acme-retail-webshop-prod' }).waitFor();
  t.ok(await admin.getByRole('button', { name: 'Retry', exact: true }).isDisabled(), 'Retry needs a failed row');
  await decide(t, admin, 'Approve', ['acme-retail-webshop-dev', 'acme-retail-webshop-prod'], 'Please confirm to approve the following 2 projects', 'approve-dialog');

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

  // Reject: the request ends Rejected and its id is free again.
  await requestProject(customer, base, { bu: 'finance', product: 'ledger', env: 'dev' }, 'acme-finance-ledger-dev');
  await customer.getByRole('button', { name: 'Save' }).click();
  await customer.waitForURL(`${base}/projectprovisioning`);
  // Retry: a project nobody asked CommandCenter for already holds this id, so creating it fails...
  await insertLocalProject(pool, { projectId: 'acme-finance-ledger-prod', displayName: 'someone else', parent: 'folders/1', labels: {} });
  await requestProject(customer, base, { bu: 'finance', product: 'ledger', env: 'prod' }, 'acme-finance-ledger-prod');
  await customer.getByRole('button', { name: 'Save' }).click();
  await customer.waitForURL(`${base}/projectprovisioning`);

  await admin.reload();
  await admin.getByRole('rowheader', { name: 'acme-finance-ledger-prod' }).waitFor();
  await decide(t, admin, 'Reject', ['acme-finance-ledger-dev'], 'Please confirm to reject the following 1 projects', 'reject-dialog');
  await admin.getByRole('cell', { name: 'Rejected', exact: true }).waitFor();
  await decide(t, admin, 'Approve', ['acme-finance-ledger-prod'], 'Please confirm to approve the following 1 projects');
  const failed = admin.getByRole('cell', { name: /^Failed: Creating project — Project id 'acme-finance-ledger-prod' is already used/ });
  await failed.waitFor({ timeout: 60_000 });
  await shot(admin, 'list-failed');
  // ...until that project is gone; the admin's retry then resumes at the failed step and creates it once.
  await pool.query(`DELETE FROM local_cloud_project WHERE project_id = 'acme-finance-ledger-prod'`);
  await decide(t, admin, 'Retry', ['acme-finance-ledger-prod'], 'Please confirm to retry the following 1 projects', 'retry-dialog');
  await active.nth(2).waitFor({ timeout: 60_000 });
  t.equal(await active.count(), 3, 'the retried row is Active too');
  t.equal(await admin.getByRole('cell', { name: 'Rejected', exact: true }).count(), 1, 'the rejected one stays Rejected');
  await shot(admin, 'list-decided');
  t.same(await countLocalCloud(pool, 'acme-finance-ledger-prod'), { projects: 1, budgets: 1, billing_links: 1, quotas: 2, owners: ['user:alice@acme.example'] });
});
