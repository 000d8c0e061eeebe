/**
 * The web shell in Chromium, per demo role: sign-in, the side menu the spec implies, customer switching,
 * the not-found page and logout. Screenshots land in test-results/screenshots/.
 */
import t from 'tap';
import type { Page } from 'playwright-core';
import { startProduct, signIn, SCREENSHOT_DIR } from './harness.ts';

const menuItems = async (page: Page) =>
  (await page.getByRole('navigation', { name: 'Side menu' }).getByRole('link').allInnerTexts()).map((s) => s.trim());

/** The menu settles once the selected customer's flags have loaded; read it when it stops changing. */
async function settledMenu(page: Page, expected: string[]): Promise<string[]> {
  let items: string[] = [];
  for (let i = 0; i < 50; i++) {
    items = await menuItems(page);
    if (JSON.stringify(items) === JSON.stringify(expected)) return items;
    await page.waitForTimeout(100);
  }
  return items;
}

const EXPECTED_MENUS: Record<string, string[]> = {
  // Operations: the provider's console across every customer, admins only (docs/decisions-operations.md)
  'admin@commandcenter.local': [
    'Operations', 'Billing', 'Anomaly Detection', 'System Health', 'Workspace License', 'Inventory', 'Project Provisioning',
    'Rapid Architecture Ticket', 'Playbook', 'Entity Management', 'Customer Management', 'User Management',
  ],
  'alice@acme.example': [
    'Billing', 'Anomaly Detection', 'System Health', 'Workspace License', 'Inventory', 'Project Provisioning',
    'Rapid Architecture Ticket', 'Playbook', 'Customer Settings',
  ],
  'victor@acme.example': ['Billing', 'Anomaly Detection', 'System Health', 'Workspace License', 'Inventory', 'Rapid Architecture Ticket', 'Playbook'],
};

t.test('web shell per role', async (t) => {
  const { base, browser, app } = await startProduct(t);

  for (const [email, expected] of Object.entries(EXPECTED_MENUS)) {
    t.test(email, async (t) => {
      const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      t.teardown(() => context.close());
      const page = await context.newPage();
      await signIn(page, base, email);
      await page.getByRole('navigation', { name: 'Side menu' }).waitFor();
      if (email.startsWith('admin')) {
        // an admin lands on the operations inbox; Billing is one menu item away
        await page.getByRole('heading', { name: 'Operations', exact: true }).waitFor();
        t.equal(new URL(page.url()).pathname, '/operations', 'the admin lands on /operations');
        await page.getByRole('navigation', { name: 'Side menu' }).getByRole('link', { name: 'Billing', exact: true }).click();
      } else {
        t.equal(new URL(page.url()).pathname, '/', `${email} lands on the Billing dashboard`);
      }
      t.same(await settledMenu(page, expected), expected, 'side menu in the spec order, gated by flags and permissions');
      const billingPicker = page.getByRole('combobox', { name: 'Billing account' });
      if (email.startsWith('victor')) t.equal(await billingPicker.count(), 0, 'no billing account picker for customerViewer');
      else t.equal(await billingPicker.count(), 1);
      await page.getByRole('heading', { name: 'Billing', exact: true }).waitFor();
      await page.screenshot({ path: `${SCREENSHOT_DIR}/shell-${email.split('@')[0]}.png` });

      await page.goto(`${base}/no/such/page`);
      await page.getByRole('heading', { name: 'Page not found' }).waitFor();
      t.pass('unknown paths show the not-found page');

      await page.getByRole('button', { name: 'Account' }).click();
      await page.getByRole('menuitem', { name: 'Logout' }).or(page.getByRole('button', { name: 'Logout' })).click();
      await page.getByRole('button', { name: 'Sign In', exact: true }).waitFor();
      await page.reload();
      await page.getByRole('button', { name: 'Sign In', exact: true }).waitFor();
      t.pass('after logout the login page stays, even on reload');
    });
  }

  t.test('switching customer changes the menu; the choice is remembered', async (t) => {
    const context = await browser.newContext();
    t.teardown(() => context.close());
    const page = await context.newPage();
    await signIn(page, base, 'alice@acme.example');
    const picker = page.getByRole('combobox', { name: 'Customer' });
    await picker.waitFor();
    await picker.selectOption({ label: 'Globex Corporation' });
    const globexMenu = ['Billing', 'Rapid Architecture Ticket', 'Playbook', 'Customer Settings'];
    t.same(await settledMenu(page, globexMenu), globexMenu);
    const cookie = (await context.cookies()).find((c) => c.name === 'selectedCustomer');
    t.equal(cookie?.value, 'globex');
    await page.reload();
    await page.getByRole('navigation', { name: 'Side menu' }).waitFor();
    t.equal(await page.getByRole('combobox', { name: 'Customer' }).inputValue(), 'globex');
  });

  t.test('a notice e-mail link opens on the customer and billing account it names', async (t) => {
    const context = await browser.newContext();
    t.teardown(() => context.close());
    const page = await context.newPage();
    await signIn(page, base, 'alice@acme.example');
    const customer = page.getByRole('combobox', { name: 'Customer' });
    await customer.waitFor();
    await customer.selectOption({ label: 'Globex Corporation' });
    await page.goto(`${base}/anomalydetection?customer=acme-corp&billing_account=01FFEE-DDCCBB-AA9988`);
    await page.getByRole('heading', { name: 'Anomaly Detection', level: 1 }).waitFor();
    const account = page.getByRole('combobox', { name: 'Billing account' });
    await account.waitFor();
    t.equal(await customer.inputValue(), 'acme-corp', 'the linked customer is selected');
    t.equal(await account.inputValue(), '01FFEE-DDCCBB-AA9988', 'the linked billing account is selected');
    t.equal(new URL(page.url()).search, '', 'the link parameters are dropped from the address');
    t.equal((await context.cookies()).find((c) => c.name === 'selectedCustomer')?.value, 'acme-corp', 'and remembered');

    // A customer the user may not see changes nothing.
    await page.goto(`${base}/?customer=initech`);
    await page.getByRole('navigation', { name: 'Side menu' }).waitFor();
    await page.waitForFunction(() => window.location.search === '');
    t.equal(await customer.inputValue(), 'acme-corp', 'a foreign customer in a link is ignored');
  });

  t.test('login form messages', async (t) => {
    const context = await browser.newContext();
    t.teardown(() => context.close());
    const page = await context.newPage();
    await page.goto(base);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    t.equal(await page.getByText('This field is required').count(), 2, 'both fields required');
    await page.getByLabel('Email').fill('alice@acme');
    await page.getByLabel('Password').fill('123');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.getByText('Email is not valid').waitFor();
    await page.getByText('Must have at least 6 characters').waitFor();
    await signIn(page, base, 'alice@acme.example', 'wrong-password');
    await page.getByText('Invalid username or password').waitFor();
    await signIn(page, base, 'pending@acme.example');
    await page.getByText('Please check your email to activate this account').waitFor();
    await page.screenshot({ path: `${SCREENSHOT_DIR}/login-unverified.png` });
    t.pass('server messages shown verbatim');
  });

  t.test('a management page hides the pickers; a gated page explains', async (t) => {
    const context = await browser.newContext();
    t.teardown(() => context.close());
    const page = await context.newPage();
    await signIn(page, base, 'admin@commandcenter.local');
    await page.getByRole('navigation', { name: 'Side menu' }).getByRole('link', { name: 'User Management' }).click();
    await page.getByRole('heading', { name: 'User Management' }).waitFor();
    t.equal(await page.getByRole('combobox', { name: 'Customer' }).count(), 0);
    await context.clearCookies();
    const viewer = await browser.newContext();
    t.teardown(() => viewer.close());
    const vpage = await viewer.newPage();
    await signIn(vpage, base, 'victor@acme.example');
    await vpage.getByRole('navigation', { name: 'Side menu' }).waitFor();
    await vpage.goto(`${base}/usermanagement`);
    await vpage.getByText('You do not have access to this page').waitFor();
    t.pass('gated route explains instead of a blank page');
  });

  t.test('an admin with more customers than the claims name searches the picker', async (t) => {
    // the claims name the first 25 customers by name; these 40 come after the demo's
    await app.env.pool.query(
      `INSERT INTO customer (customer_id, customer_name, billing_account_ids, billing_currency)
       SELECT 'zeta-' || translate(lpad(i::text, 2, '0'), '0123456789', 'abcdefghij'), 'Zeta customer ' || i, ARRAY['ZZ-' || i], 'EUR'
         FROM generate_series(1, 40) AS i`,
    );
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    t.teardown(() => context.close());
    const page = await context.newPage();
    await signIn(page, base, 'admin@commandcenter.local');
    await page.getByRole('heading', { name: 'Operations', exact: true }).waitFor();
    await page.getByRole('navigation', { name: 'Side menu' }).getByRole('link', { name: 'Billing', exact: true }).click();
    const picker = page.getByRole('combobox', { name: 'Customer' });
    await picker.waitFor();
    t.equal(await picker.locator('option', { hasText: 'Zeta customer 37' }).count(), 0, 'a customer past the first 25 is not listed at first');
    await page.getByRole('searchbox', { name: 'Find customer' }).fill('customer 37');
    await picker.locator('option', { hasText: 'Zeta customer 37' }).waitFor({ state: 'attached' });
    await picker.selectOption({ label: 'Zeta customer 37' });
    t.equal((await context.cookies()).find((c) => c.name === 'selectedCustomer')?.value, 'zeta-dh', 'the found customer is selected');
    await page.reload();
    await page.getByRole('navigation', { name: 'Side menu' }).waitFor();
    await page.getByRole('combobox', { name: 'Customer' }).locator('option', { hasText: 'Zeta customer 37' }).waitFor({ state: 'attached' });
    t.equal(await page.getByRole('combobox', { name: 'Customer' }).inputValue(), 'zeta-dh', 'and stays selected after a reload, though not in the claims');
    t.equal(await page.getByRole('combobox', { name: 'Billing account' }).inputValue(), 'ZZ-37', 'with its billing account');
  });
});
