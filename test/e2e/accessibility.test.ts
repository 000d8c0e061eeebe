/**
 * Accessibility: every route, as the admin and as a customer, scanned with axe-core for WCAG 2.0/2.1 A and AA — no
 * serious or critical violation — and the keyboard alone reaching the billing dashboard's controls and a form's
 * fields and Save. The read-only viewer and the customer without a billing account are scanned in
 * accessibility-readonly.test.ts. The violations found are listed in the test output (rule, impact, the first elements).
 */
import t from 'tap';
import { signIn, startProduct } from './harness.ts';
import { TOUR_USERS, tourPaths, visit } from './tour.ts';
import { scanAsUser, tabThrough } from './axe.ts';

t.test('accessibility', async (t) => {
  const { base, browser, app } = await startProduct(t);
  const paths = await tourPaths(app.env.pool);

  for (const email of TOUR_USERS.slice(0, 2)) await scanAsUser(t, browser, base, paths, email);

  await t.test('the keyboard alone: the billing dashboard and a form', async (t) => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    t.teardown(() => context.close());
    const page = await context.newPage();
    await signIn(page, base, 'alice@acme.example');
    await page.getByRole('heading', { name: 'Billing', level: 1 }).waitFor();
    await page.waitForLoadState('networkidle');

    const dashboard = await tabThrough(page, (n) => n === 'Settings');
    t.equal(dashboard[0], 'Skip to content', 'a skip link first');
    for (const control of ['Customer', 'Billing account', 'Billing', 'Viewers', 'Alerts', 'Reconcile with invoice', 'Export', 'Settings']) {
      t.ok(dashboard.includes(control), `Tab reaches ${control}`);
    }
    // Enter on the focused Settings opens the drawer, Escape closes it
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    t.pass('Settings opens and closes by keyboard');

    await visit(page, base, '/supportrequest/new');
    const form = await tabThrough(page, (n) => n === 'Save');
    for (const field of ['Summary', 'Description', 'Save']) t.ok(form.some((n) => n.startsWith(field)), `Tab reaches ${field}`);
  });
});
