/**
 * Administration in Chromium: as admin, create an entity, a customer with tier discounts and a
 * service account, invite two users to it, move one to another customer, delete one; the invited user
 * sets a password through the invitation e-mail (delivered over real SMTP by the notify worker) and
 * then sees exactly that customer. Screenshots land in test-results/screenshots/admin-*.png.
 */
import t from 'tap';
import type { Page } from 'playwright-core';
import { startLocalSmtpServer } from '@cc/shared/adapters/mail/local-smtp-server.ts';
import { smtpMailer } from '@cc/shared/adapters/mail/smtp-mailer.ts';
import { buildHandlers } from '../../workers/src/handlers.ts';
import { startWorkers } from '../../workers/src/worker-host.ts';
import { REDIS_URL } from '../db.ts';
import { bearer, login } from '../helper.ts';
import { startProduct, signIn, SCREENSHOT_DIR } from './harness.ts';

const ENTITY = 'Zeta Holdings';
const CUSTOMER = 'Zeta Dynamics';
const CUSTOMER_ID = 'zetadynamics';
const STAYS = 'dana@zeta.example';
const MOVES = 'eli@zeta.example';
const NEW_PASSWORD = 'zeta-secret-42';

const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOT_DIR}/admin-${name}.png`, fullPage: true });
const snackbar = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text }).first().waitFor();

t.test('administration end to end', async (t) => {
  const { base, browser, app } = await startProduct(t);
  const { pool, config } = app.env;

  // The E2E api has no worker: run the notify handler here, delivering to the local SMTP inbox.
  const smtp = await startLocalSmtpServer(pool, 0);
  t.teardown(() => smtp.close());
  const host = await startWorkers({
    redisUrl: REDIS_URL,
    prefix: config.QUEUE_PREFIX,
    queues: ['notify'],
    handlers: buildHandlers(['notify'], { pool, mailer: smtpMailer(`smtp://127.0.0.1:${smtp.port}`, config.MAIL_FROM), mailDomain: 'commandcenter.test' }),
  });
  t.teardown(() => host.close());

  const adminContext = await browser.newContext({ viewport: { width: 1400, height: 1000 }, permissions: ['clipboard-read', 'clipboard-write'] });
  t.teardown(() => adminContext.close());
  const page = await adminContext.newPage();
  await signIn(page, base, 'admin@commandcenter.local');
  await page.getByRole('navigation', { name: 'Side menu' }).waitFor();

  t.test('entity: required name, create, listed with No Users', async (t) => {
    await page.getByRole('link', { name: 'Entity Management' }).click();
    await page.getByRole('heading', { name: 'Entity Management' }).waitFor();
    await page.getByRole('button', { name: 'New' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('This field is required').waitFor();
    t.pass("a blank name says 'This field is required'");
    await page.waitForTimeout(600); // let the validation message finish appearing before the picture
    await shot(page, 'entity-new');
    await page.getByLabel('Name').fill(ENTITY);
    await page.getByLabel('Email domain allowed').fill('zeta_example');
    await page.getByRole('button', { name: 'Save' }).click();
    await snackbar(page, 'email_domain_allowed: not a domain name: zeta_example');
    t.pass("the server's detail when it gives one");
    await page.route('**/v1/entities/', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ detail: 'Internal Server Error' }) })
        : route.fallback(),
    );
    await page.getByLabel('Email domain allowed').fill('zeta.example\nzeta-group.example');
    await page.getByRole('button', { name: 'Save' }).click();
    await snackbar(page, 'Error saving Entity');
    t.pass("else 'Error saving Entity'");
    await page.unroute('**/v1/entities/');
    await page.getByRole('button', { name: 'Save' }).click();
    await snackbar(page, `${ENTITY} successfully saved`);
    await page.getByRole('tab', { name: 'Entity Admin' }).waitFor();
    t.pass("'{name} successfully saved', then the update screen with its tabs");
    await page.goto(`${base}/entitymanagement`);
    const row = page.getByRole('row').filter({ hasText: ENTITY });
    await row.waitFor();
    t.match(await row.innerText(), /No Users/, "no admins: 'No Users'");

    // Keyboard: a focused row opens with Enter.
    await row.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Update Entity' }).waitFor();
    await page.route('**/v1/entities/zeta-holdings/', (route) =>
      route.request().method() === 'PUT'
        ? route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ detail: 'Internal Server Error' }) })
        : route.fallback(),
    );
    await page.getByRole('button', { name: 'Update' }).click();
    await snackbar(page, 'Error updating Entity');
    t.pass("'Error updating Entity'");
    await page.unroute('**/v1/entities/zeta-holdings/');
    await page.getByRole('button', { name: 'Update' }).click();
    await snackbar(page, `${ENTITY} successfully updated`);
    await shot(page, 'entity-info');
    await page.getByRole('tab', { name: 'Entity Admin' }).click();
    const admins = page.getByRole('tabpanel');
    t.equal(await admins.getByRole('button', { name: 'Add' }).isDisabled(), true, 'Add stays disabled while nothing is chosen');
    await admins.getByRole('checkbox', { name: 'admin@commandcenter.local' }).check();
    await admins.getByRole('button', { name: 'Add' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Please confirm' });
    await confirm.getByRole('button', { name: 'Submit' }).click();
    await snackbar(page, `${ENTITY} successfully updated`);
    await admins.getByRole('row').filter({ hasText: 'admin@commandcenter.local' }).waitFor();
    await shot(page, 'entity-admins');
    await page.getByRole('link', { name: 'Entity Management' }).click();
    await page.getByRole('row').filter({ hasText: ENTITY }).filter({ hasText: 'admin@commandcenter.local' }).waitFor();
    t.pass('the admin shows in the Admin Email column after the confirm dialog');
    await page.getByLabel('Filter Entities').fill('zeta');
    t.equal(await page.getByRole('row').count(), 2, 'the filter keeps the header and the one matching entity');
    await shot(page, 'entities');
  });

  t.test('customer: id rule, tier discounts, service account', async (t) => {
    await page.goto(`${base}/customermanagement`);
    await page.getByRole('heading', { name: 'Customer Management' }).waitFor();
    await page.getByRole('button', { name: 'New' }).click();
    await page.getByRole('tab', { name: 'Customer Info' }).waitFor();
    t.equal(await page.getByRole('combobox', { name: 'Currency' }).inputValue(), 'EUR', 'currency defaults to EUR');

    await page.getByRole('textbox', { name: 'Name *' }).fill('Ze ta');
    t.equal(await page.getByLabel('Id', { exact: true }).inputValue(), 'zeta', 'the id is the name lower-cased without spaces');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Must have at least 6 characters').waitFor();
    t.equal(await page.getByText('This field is required').count(), 2, 'entity and billing account are required');

    await page.getByRole('textbox', { name: 'Name *' }).fill(CUSTOMER);
    t.equal(await page.getByLabel('Id', { exact: true }).inputValue(), CUSTOMER_ID);
    await page.getByRole('combobox', { name: 'Entity *' }).selectOption({ label: ENTITY });
    await page.getByRole('textbox', { name: 'Billing account Id *' }).fill('0ZE7A1-B2C3D4-E5F6A7, 0ZE7A1-000000-111111');
    t.equal(await page.getByRole('textbox', { name: 'Billing account Id *' }).inputValue(), '0ZE7A1-B2C3D4-E5F6A7,0ZE7A1-000000-111111', 'spaces removed');
    await page.getByRole('combobox', { name: 'Currency' }).selectOption('GBP');

    await page.getByRole('combobox', { name: 'Dashboard type' }).selectOption('Set Discount');
    await page.getByLabel('Discount (%)').waitFor();
    await page.getByRole('combobox', { name: 'Dashboard type' }).selectOption('Tier Discount');
    t.equal(await page.getByLabel('Discount (%)').count(), 0, 'Discount (%) only with Set Discount');
    await page.getByRole('button', { name: 'Add tier' }).click();
    await page.getByRole('button', { name: 'Add tier' }).click();
    await page.getByLabel('Threshold spend of tier 1').fill('0');
    await page.getByLabel('Percentage of tier 1').fill('2');
    await page.getByLabel('Threshold spend of tier 2').fill('ten thousand');
    await page.getByLabel('Percentage of tier 2').fill('5');

    const inventory = page.getByRole('checkbox', { name: 'Inventory' });
    t.ok(await inventory.isDisabled(), 'Inventory is disabled without a service account');
    await page.getByRole('checkbox', { name: 'Service Account' }).check();
    t.ok(await inventory.isEnabled(), 'and enabled with one');
    await inventory.check();
    await page.getByRole('checkbox', { name: 'System health' }).check();
    await page.getByRole('checkbox', { name: 'Service Account' }).uncheck();
    t.notOk(await inventory.isChecked(), 'unticking Service Account clears Inventory');
    t.notOk(await page.getByRole('checkbox', { name: 'System health' }).isChecked(), 'and System health');
    await page.getByRole('checkbox', { name: 'Service Account' }).check();
    await inventory.check();
    await page.getByRole('textbox', { name: /^Service account e-mail/ }).fill(`cc-${CUSTOMER_ID}@zeta-prod.iam.gserviceaccount.com`);
    await page.getByRole('checkbox', { name: 'Documentation' }).check();
    await page.getByLabel('Custom drive folder').fill('https://drive.google.com/drive/folders/1AbCdEfGh_ijk?usp=sharing');
    t.equal(await page.getByLabel('Custom drive folder').inputValue(), '1AbCdEfGh_ijk', 'a pasted folder link keeps only the id');

    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Must be a number').waitFor();
    t.pass('tier rows must be numeric');
    await page.getByLabel('Threshold spend of tier 2').fill('10000');
    await shot(page, 'customer-new');

    // The user tabs work before the first save: the chosen users are stored with the customer.
    for (const tab of ['User Access', 'Billing Alert Notification']) {
      await page.getByRole('tab', { name: new RegExp(tab) }).click();
      const panel = page.getByRole('tabpanel');
      await panel.getByRole('checkbox', { name: 'bob@initech.example', exact: true }).check();
      await panel.getByRole('button', { name: 'Add' }).click();
      await page.getByRole('alertdialog', { name: 'Please confirm' }).getByRole('button', { name: 'Submit' }).click();
      await panel.getByRole('row').filter({ hasText: 'bob@initech.example' }).waitFor();
    }
    await shot(page, 'customer-new-alerts');
    await page.getByRole('tab', { name: 'Customer Info' }).click();
    await page.route('**/v1/customers/', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ detail: 'Internal Server Error' }) })
        : route.fallback(),
    );
    await page.getByRole('button', { name: 'Save' }).click();
    await snackbar(page, 'Error saving Customer');
    t.pass("'Error saving Customer' (000 §8) when the api gives no detail");
    await page.unroute('**/v1/customers/');
    await page.getByRole('button', { name: 'Save' }).click();
    await snackbar(page, `${CUSTOMER} successfully saved`);
    await page.getByRole('heading', { name: 'Customer Management' }).waitFor();
    await page.getByRole('row').filter({ hasText: CUSTOMER }).waitFor();
    t.pass("'{customer name} successfully saved', then back to the list");
    await shot(page, 'customers');

    const token = await login(app, 'admin@commandcenter.local');
    const stored = (await app.inject({ method: 'GET', url: `/v1/customers/${CUSTOMER_ID}/`, headers: bearer(token) })).json();
    t.match(stored, {
      customer_id: CUSTOMER_ID,
      customer_name: CUSTOMER,
      billing_account_id: '0ZE7A1-B2C3D4-E5F6A7,0ZE7A1-000000-111111',
      billing_currency: 'GBP',
      billing_dashboard_type: 'Tier Discount',
      billing_dashboard_tier_discount: [
        { threshold_spend: 0, percentage: 2 },
        { threshold_spend: 10000, percentage: 5 },
      ],
      gcp_service_account: true,
      inventory: true,
      system_health_dashboard: false,
      documentation: true,
      drive_id: '1AbCdEfGh_ijk',
      users: ['bob@initech.example'],
      notify: [],
      alert: ['bob@initech.example'],
    });

    await page.getByRole('row').filter({ hasText: CUSTOMER }).click();
    await page.getByRole('heading', { name: 'Update Customer' }).waitFor();
    t.ok(await page.getByRole('checkbox', { name: 'Service Account' }).isDisabled(), 'the service account is read-only once set');
    const advanced = page.getByRole('region', { name: 'Advanced Settings' });
    await advanced.getByLabel('Project ids').fill('zeta-prod-1, zeta-data');
    await advanced.getByRole('button', { name: 'Grant script' }).click();
    const script = advanced.getByLabel('Cloud shell script');
    await script.waitFor();
    const text = await script.innerText();
    t.match(text, /zeta-prod-1/, 'the grant script names the projects');
    t.match(text, /zeta-data/);
    await advanced.getByRole('button', { name: 'Copy to clipboard' }).click();
    await snackbar(page, 'Script copied to clipboard');
    t.equal(await page.evaluate(() => navigator.clipboard.readText()), text, 'the script is on the clipboard');
    await shot(page, 'customer-update');

    await page.getByRole('combobox', { name: 'Currency' }).selectOption('DKK');

    // Project provisioning (spec 000 §3): choices and a template edited field by field.
    await page.locator('summary', { hasText: 'Project Provisioning' }).click();
    await page.getByLabel('Business Units').fill('Retail, Finance');
    await page.getByLabel('Products').fill('shop');
    await page.getByLabel('Environments').fill('dev, prod');
    await page.getByLabel('Cost Owners').fill('ops');
    await page.getByRole('button', { name: 'Add template' }).click();
    const template = page.getByRole('group', { name: 'Template 1' });
    await template.getByLabel(/^Template name/).fill('Standard');
    await template.getByLabel('Project type').fill('service');
    await template.getByLabel('Folder name').fill('Retail');
    await template.getByLabel('Folder number').fill('123456789');
    await template.getByLabel('Project name').fill('zeta-{bu}-{product}-{env}');
    await template.getByLabel('Owner label').fill('owner');
    await template.getByLabel('Default admin').fill('ops@zeta.example');
    await template.getByLabel(/^Budget/).fill('a lot');
    await template.getByLabel(/^BigQuery analysis quota/).fill('10');
    await template.getByLabel(/^Compute Engine CPUs quota/).fill('8');
    await page.getByRole('button', { name: 'Update' }).click();
    await template.getByText('Must be a number').waitFor();
    t.pass('template numbers are checked');
    await template.getByLabel(/^Budget/).fill('500');
    t.ok(await template.isVisible(), 'the templates stay open once the error is fixed');
    await shot(page, 'customer-templates');
    await page.route(`**/v1/customers/${CUSTOMER_ID}/`, (route) =>
      route.request().method() === 'PUT'
        ? route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ detail: 'Internal Server Error' }) })
        : route.fallback(),
    );
    await page.getByRole('button', { name: 'Update' }).click();
    await snackbar(page, 'Error saving customer');
    t.pass("'Error saving customer'");
    await page.unroute(`**/v1/customers/${CUSTOMER_ID}/`);
    await page.getByRole('button', { name: 'Update' }).click();
    await snackbar(page, `${CUSTOMER} successfully updated`);
    const updated = (await app.inject({ method: 'GET', url: `/v1/customers/${CUSTOMER_ID}/`, headers: bearer(token) })).json();
    t.equal(updated.billing_currency, 'DKK', "'{name} successfully updated' and saved");
    t.match(updated, {
      business_units: ['Retail', 'Finance'],
      env: ['dev', 'prod'],
      owner_values: ['ops'],
      project_provisioning: [
        {
          template_name: 'Standard',
          folder_name: 'Retail',
          folder_number: '123456789',
          project_template: {
            project_type: 'service',
            default_admin: 'ops@zeta.example',
            budget: 500,
            owner_label: 'owner',
            project_name: 'zeta-{bu}-{product}-{env}',
            quota: { bigquery_analysis: 10, compute_engine_cpus: 8 },
          },
        },
      ],
    }, 'the template is stored in the shape of spec 000 §3');

    await page.goto(`${base}/customermanagement/update/no-such-customer`);
    const notFound = page.getByRole('alertdialog', { name: 'Customer not found' });
    await notFound.waitFor();
    await notFound.getByRole('button', { name: 'OK' }).click();
    await page.waitForURL(`${base}/customermanagement`);
    t.pass("'Customer not found'; closing returns to the list");
  });

  t.test('users: invite two, move one, delete one; the list is live', async (t) => {
    await page.goto(`${base}/usermanagement/new`);
    await page.getByRole('heading', { name: 'New Users' }).waitFor();
    await page.getByRole('button', { name: 'Invite' }).click();
    t.equal(await page.getByText('This field is required').count(), 2, 'role and e-mails are required');
    await page.getByText('Please grant access to at least one customer').waitFor();
    await page.getByRole('combobox', { name: 'Role *' }).selectOption({ label: 'Customer' });
    await page.getByRole('textbox', { name: 'Emails *' }).fill('dana@zeta, eli@zeta.example');
    await page.getByRole('button', { name: 'Invite' }).click();
    await page.getByText('Email list is not valid').waitFor();
    t.pass("'Email list is not valid'");

    await page.getByLabel('Search customers').fill('zeta');
    await page.getByRole('checkbox', { name: CUSTOMER }).check();
    await page.getByRole('button', { name: 'Grant access to the ticked customers' }).click();
    await page.getByLabel('Search customers').fill('');

    await page.getByRole('textbox', { name: 'Emails *' }).fill('alice@acme.example');
    await page.getByRole('button', { name: 'Invite' }).click();
    const exists = page.getByRole('alertdialog', { name: 'E-mail already exists' });
    await exists.waitFor();
    t.match(await exists.innerText(), /alice@acme\.example/);
    await shot(page, 'users-exists');
    await exists.getByRole('button', { name: 'OK' }).click();

    await page.getByRole('textbox', { name: 'Emails *' }).fill(` Dana@Zeta.example , ${MOVES.toUpperCase()}`);
    await shot(page, 'users-new');
    await page.getByRole('button', { name: 'Invite' }).click();
    await snackbar(page, '2 user(s) invited with success');
    await page.getByRole('heading', { name: 'User Management' }).waitFor();
    for (const email of [STAYS, MOVES]) await page.getByRole('row').filter({ hasText: email }).waitFor();
    t.match(await page.getByRole('row').filter({ hasText: STAYS }).innerText(), new RegExp(`Customer[\\s\\S]*${ENTITY}[\\s\\S]*${CUSTOMER}`));

    // An address on an access list without a user entry, of a customer without an entity (spec 001 §2.7).
    await pool.query(`UPDATE customer SET entity = NULL WHERE customer_id = 'initech'`);
    await pool.query(`INSERT INTO customer_member (customer_id, list, user_id) VALUES ('initech', 'users', 'ghost@initech.example')`);
    await page.reload();
    const ghost = page.getByRole('row').filter({ hasText: 'ghost@initech.example' });
    await ghost.waitFor();
    t.match(await ghost.innerText(), /user not found[\s\S]*No Entity[\s\S]*Initech/, "'user not found' and 'No Entity'");
    await shot(page, 'users-not-found');
    await pool.query(`UPDATE customer SET entity = 'solo-ventures' WHERE customer_id = 'initech'`);
    await pool.query(`DELETE FROM customer_member WHERE user_id = 'ghost@initech.example'`);
    await page.reload();
    await ghost.waitFor({ state: 'detached' });

    // Live: a change made elsewhere shows up without a reload.
    const token = await login(app, 'admin@commandcenter.local');
    const other = await app.inject({
      method: 'POST',
      url: '/v1/users/',
      headers: bearer(token),
      payload: { role: 'customerViewer', emails: 'fay@zeta.example', customers: [CUSTOMER_ID] },
    });
    t.equal(other.statusCode, 201, other.body);
    await page.getByRole('row').filter({ hasText: 'fay@zeta.example' }).waitFor({ timeout: 10_000 });
    t.match(await page.getByRole('row').filter({ hasText: 'fay@zeta.example' }).innerText(), /Customer Viewer/);
    t.pass('the list updated from the server-sent event');

    // Move eli from Zeta Dynamics to Globex.
    await page.getByRole('row').filter({ hasText: MOVES }).getByText(MOVES).click();
    await page.getByRole('heading', { name: 'Update User' }).waitFor();
    await page.getByRole('textbox', { name: 'Email *' }).fill('eli@zeta');
    await page.getByRole('button', { name: 'Update' }).click();
    await page.getByText('Email is not valid').waitFor();
    await page.getByRole('textbox', { name: 'Email *' }).fill(MOVES);
    await page.getByRole('checkbox', { name: CUSTOMER }).check();
    await page.getByRole('button', { name: 'Remove access to the ticked customers' }).click();
    await page.getByRole('checkbox', { name: 'Globex Corporation' }).check();
    await page.getByRole('button', { name: 'Grant access to the ticked customers' }).click();
    t.ok(await page.getByRole('button', { name: 'Grant access to the ticked customers' }).isDisabled(), 'Grant is disabled again once moved');
    await shot(page, 'users-update');
    await page.getByRole('button', { name: 'Update' }).click();
    await snackbar(page, 'User updated with success');
    const moved = page.getByRole('row').filter({ hasText: MOVES });
    await moved.filter({ hasText: 'Globex Corporation' }).waitFor();
    t.notMatch(await moved.innerText(), new RegExp(CUSTOMER), 'moved: no longer on the old customer');

    // Delete eli.
    await page.getByRole('checkbox', { name: `Select ${MOVES}` }).check();
    await page.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Please confirm' });
    await confirm.waitFor();
    await shot(page, 'users-delete');
    await confirm.getByRole('button', { name: 'Submit' }).click();
    await snackbar(page, '1 user(s) deleted with success');
    await page.getByRole('row').filter({ hasText: MOVES }).waitFor({ state: 'detached' });
    await shot(page, 'users');

    const { rows } = await pool.query(
      `SELECT customer_id, list FROM customer_member WHERE user_id = $1 UNION ALL SELECT 'app_user', id FROM app_user WHERE id = $1`,
      [MOVES],
    );
    t.same(rows, [], 'the deleted user is gone from every list');
  });

  t.test('customer lists: User Access shows the invited user; add to R.A.T Notification', async (t) => {
    await page.goto(`${base}/customermanagement/update/${CUSTOMER_ID}`);
    await page.getByRole('tab', { name: /User Access/ }).click();
    const access = page.getByRole('tabpanel');
    await access.getByRole('row').filter({ hasText: STAYS }).waitFor();
    t.equal(await access.getByRole('row').filter({ hasText: MOVES }).count(), 0, 'the moved user left the access list');
    await page.getByRole('tab', { name: /R\.A\.T Notification/ }).click();
    const notify = page.getByRole('tabpanel');
    await notify.getByRole('checkbox', { name: STAYS }).check();
    await notify.getByRole('button', { name: 'Add' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Please confirm' });
    await confirm.waitFor();
    await confirm.getByRole('button', { name: 'Submit' }).click();
    await snackbar(page, `${CUSTOMER} successfully updated`);
    await notify.getByRole('row').filter({ hasText: STAYS }).waitFor();
    t.equal(await notify.getByRole('checkbox', { name: STAYS, exact: true }).count(), 0, 'a member is no longer offered in the pick list');
    await shot(page, 'customer-notify');

    // A user deleted by another admin while the confirm dialog is open: the api refuses, the tab says so.
    const adminToken = await login(app, 'admin@commandcenter.local');
    await page.getByRole('tab', { name: /User Access/ }).click();
    const users = page.getByRole('tabpanel');
    await users.getByRole('checkbox', { name: 'victor@acme.example', exact: true }).check();
    await users.getByRole('button', { name: 'Add' }).click();
    await confirm.waitFor();
    const gone = await app.inject({ method: 'DELETE', url: '/v1/users/', headers: bearer(adminToken), payload: { users: ['victor@acme.example'] } });
    t.equal(gone.statusCode, 200, gone.body);
    await confirm.getByRole('button', { name: 'Submit' }).click();
    await snackbar(page, 'Error saving customer access list');
    t.pass("'Error saving customer access list'");

    // The api failing on the other two lists.
    for (const [tab, list, message] of [
      [/R\.A\.T Notification/, 'notify', 'Error saving customer notification list'],
      [/Billing Alert Notification/, 'alert', 'Error saving customer alert list'],
    ] as const) {
      await page.route(`**/v1/customers/${CUSTOMER_ID}/lists/${list}/`, (route) =>
        route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ detail: 'Internal Server Error' }) }),
      );
      await page.getByRole('tab', { name: tab }).click();
      const panel = page.getByRole('tabpanel');
      const member = await panel.getByRole('row').filter({ hasText: '@' }).count();
      if (member > 0) {
        await panel.getByRole('checkbox', { name: /^Select \S+@/ }).first().check();
        await panel.getByRole('button', { name: 'Delete' }).click();
      } else {
        await panel.getByRole('checkbox', { name: 'alice@acme.example', exact: true }).check();
        await panel.getByRole('button', { name: 'Add' }).click();
      }
      await confirm.getByRole('button', { name: 'Submit' }).click();
      await snackbar(page, message);
      t.pass(`'${message}'`);
      await page.unroute(`**/v1/customers/${CUSTOMER_ID}/lists/${list}/`);
    }
    await shot(page, 'customer-list-error');
  });

  t.test('the invited user sets a password from the e-mail and sees exactly that customer', async (t) => {
    let link: string | undefined;
    for (let i = 0; i < 50 && !link; i++) {
      const { rows } = await pool.query<{ text_body: string }>(`SELECT text_body FROM mail_message WHERE $1 = ANY(rcpt_to) ORDER BY id DESC`, [STAYS]);
      link = rows[0]?.text_body.match(/https?:\/\/\S+\/invitation\/[A-Za-z0-9_-]+/)?.[0];
      if (!link) await new Promise((r) => setTimeout(r, 200));
    }
    t.ok(link, 'the invitation e-mail arrived through SMTP with its link');
    t.ok(link!.startsWith(`${base}/invitation/`), 'the link points at the product');

    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    t.teardown(() => context.close());
    const invited = await context.newPage();
    await invited.goto(link!);
    await invited.getByRole('heading', { name: 'Set your password' }).waitFor();
    t.equal(await invited.getByLabel('Email').inputValue(), STAYS);
    await invited.getByLabel(/^Password/).fill('short');
    await invited.getByLabel(/^Confirm password/).fill('short');
    await invited.getByRole('button', { name: 'Set password' }).click();
    await invited.getByText('Must have at least 6 characters').waitFor();
    await invited.getByLabel(/^Password/).fill(NEW_PASSWORD);
    await invited.getByLabel(/^Confirm password/).fill(NEW_PASSWORD);
    await shot(invited, 'invitation');
    await invited.getByRole('button', { name: 'Set password' }).click();
    await invited.getByText('Your password is set').waitFor();
    await invited.getByRole('button', { name: 'Go to Sign In' }).click();

    await signIn(invited, base, STAYS, NEW_PASSWORD);
    await invited.getByRole('navigation', { name: 'Side menu' }).waitFor();
    const picker = invited.getByRole('combobox', { name: 'Customer' });
    await picker.waitFor();
    const options = await picker.locator('option').allInnerTexts();
    t.same(options, [CUSTOMER], 'exactly the granted customer');
    await invited.getByRole('link', { name: 'Customer Settings' }).click();
    const settings = invited.getByRole('region', { name: 'Customer Info' });
    await settings.waitFor();
    t.match(await settings.innerText(), /Tier Discount/, 'the customer reads its own settings');
    await settings.getByText(ENTITY, { exact: true }).waitFor();
    t.match(await settings.innerText(), new RegExp(`Entity\\s+${ENTITY}`), 'the entity shows by its name, not its id');
    t.match(await settings.innerText(), /Business Units\s+Retail, Finance[\s\S]*Project templates\s+Standard/, 'and its project provisioning choices');
    t.match(await settings.innerText(), /Alerts and anomalies judge\s+Billed cost/, 'and the cost basis alerts and anomalies judge, as the edit form words it');
    t.equal(await invited.getByRole('textbox').count(), 0, 'read-only: nothing to edit');
    await shot(invited, 'invited-settings');
    const refused = await invited.request.get(`${base}/v1/customers/acme-corp/`);
    t.equal(refused.status(), 404, 'another customer answers Customer not found');
    t.equal(await invited.request.get(`${base}/v1/users/`).then((r) => r.status()), 403, 'no user management for a customer');

    // Management screens are for admins: not in a customer's menu, and refused when typed in.
    const menu = await invited.getByRole('navigation', { name: 'Side menu' }).innerText();
    t.notMatch(menu, /Entity Management|Customer Management|User Management/, 'no management items in the menu');
    for (const path of ['/entitymanagement', '/customermanagement', `/customermanagement/update/${CUSTOMER_ID}`, '/usermanagement', '/usermanagement/new']) {
      await invited.goto(`${base}${path}`);
      await invited.getByText('You do not have access to this page').waitFor();
      t.pass(`a customer is refused ${path}`);
    }
    await page.goto(`${base}/customermanagement/view`);
    await page.getByText('You do not have access to this page').waitFor();
    t.pass('Customer Settings is for role customer only: an admin is refused');

    await invited.goto(link!);
    await invited.getByText('Invitation not found or expired').waitFor();
    t.pass('the link works once');
  });
});
