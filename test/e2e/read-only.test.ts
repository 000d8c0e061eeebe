/**
 * A read-only user (customerViewer) sees no write buttons (Workspace License: Create License, Update, Order; System
 * Health: Initialize, Rebuild), and a refusal a user meets anyway shows the api's `detail` in a banner, not only
 * "Error placing order". Screenshots: test-results/screenshots/read-only-*.png.
 */
import t from 'tap';
import { SCREENSHOT_DIR, signIn, startProduct } from './harness.ts';

const SKU = '1010020028';

t.test('read-only looks read-only; refusals say why', async (t) => {
  const { base, browser, app } = await startProduct(t);
  const { pool } = app.env;

  const alice = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  t.teardown(() => alice.context().close());
  await signIn(alice, base, 'alice@acme.example');
  await alice.getByRole('link', { name: 'Workspace License' }).click();
  await alice.getByRole('button', { name: 'Create License' }).click();
  const dialog = alice.getByRole('dialog', { name: 'Create License' });
  await dialog.getByLabel('SKU Id').selectOption(SKU);
  await dialog.getByLabel('Threshold').fill('5');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await alice.getByText('License was successfully created!').waitFor();

  await t.test('the viewer reads licenses without write buttons', async (t) => {
    const victor = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    t.teardown(() => victor.context().close());
    await signIn(victor, base, 'victor@acme.example');
    await victor.getByRole('link', { name: 'Workspace License' }).click();
    await victor.getByRole('row').filter({ hasText: 'Google Workspace Business Standard' }).waitFor();
    t.equal(await victor.getByRole('button', { name: 'Create License' }).count(), 0, 'no Create License');
    t.equal(await victor.getByRole('button', { name: /^Update / }).count(), 0, 'no Update');
    t.equal(await victor.getByRole('button', { name: /^Order / }).count(), 0, 'no Order');
    await victor.screenshot({ path: `${SCREENSHOT_DIR}/read-only-licenses.png`, fullPage: true });

    await victor.getByRole('link', { name: 'System Health' }).click();
    await victor.getByRole('button', { name: 'Credentials', exact: true }).click();
    const panel = victor.getByRole('region', { name: 'Credentials' });
    t.ok(await panel.getByRole('button', { name: 'Initialize Dashboard' }).isDisabled(), 'no Initialize');
    t.ok(await panel.getByRole('button', { name: 'Rebuild Dashboard' }).isDisabled(), 'no Rebuild');
  });

  await t.test("a refused order shows the api's reason", async (t) => {
    await alice.getByRole('button', { name: 'Order Google Workspace Business Standard' }).click();
    const card = alice.getByRole('region', { name: 'Order Google Workspace Business Standard' });
    await card.getByLabel('Amount').fill('2');
    // Meanwhile the provider turns Workspace licenses off for Acme.
    await pool.query(`UPDATE customer SET workspace_license = false WHERE customer_id = 'acme-corp'`);
    await card.getByRole('button', { name: 'Place Order' }).click();
    await alice.getByText('Error placing order').first().waitFor();
    const banner = card.getByTestId('refusal');
    await banner.waitFor();
    t.match(await banner.innerText(), /Workspace licenses are off for Acme Corp/, 'the detail is shown');
    await alice.screenshot({ path: `${SCREENSHOT_DIR}/read-only-refusal.png`, fullPage: true });
  });
});
