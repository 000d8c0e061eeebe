/**
 * Create License offers the domain's subscriptions and its defaults pass the spec's rules; the inventory graph fits
 * every layout, labels a small graph without hover, names its orientations in full and leads from a node to its asset
 * row; the recommendations table is not clipped at 1440 px. Screenshots: test-results/screenshots/first-minute-*.png.
 */
import t from 'tap';
import type { Browser, Page } from 'playwright-core';
import { localInventorySource } from '@cc/shared/adapters/inventory/local.ts';
import { syncInventory } from '../../workers/src/inventory/sync.ts';
import { billProjects } from '../inventory-fixtures.ts';
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

  await billProjects(pool, [['acme-shop-prod', 'Webshop']]);
  t.equal((await syncInventory({ pool, source: localInventorySource(pool) }, 'acme-corp')).status, 'succeeded');

  await t.test('recommendations at 1440 px: no column clipped', async (t) => {
    const alice = await session(browser, base, 'alice@acme.example');
    t.teardown(() => alice.context().close());
    await alice.goto(`${base}/inventory`);
    const header = alice.getByRole('columnheader', { name: 'Monthly Saving' });
    await header.waitFor();
    await alice.getByText(/Savings claimed/).waitFor();
    await shot(alice, 'recommendations-1440');
    const fit = await header.evaluate((th) => {
      const box = th.getBoundingClientRect();
      let scroller: HTMLElement | null = th.parentElement;
      while (scroller && scroller.scrollWidth <= scroller.clientWidth) scroller = scroller.parentElement;
      const text = th.querySelector('span, div') ?? th;
      return { right: box.right, viewport: window.innerWidth, cut: text.scrollWidth > text.clientWidth + 1, scrolls: scroller?.tagName ?? null };
    });
    t.notOk(fit.cut, 'the header text is whole');
    t.ok(fit.right <= fit.viewport, `the last column is on screen (${fit.right} of ${fit.viewport} px)`);
    t.equal(fit.scrolls, null, 'nothing scrolls sideways at 1440 px');
  });

  await t.test('the graph: names without hover, full orientation names, fitted layouts, a node leads to its row', async (t) => {
    const alice = await (await browser.newContext({ viewport: { width: 1440, height: 1000 } })).newPage();
    t.teardown(() => alice.context().close());
    // what the canvas writes: the names drawn as text
    await alice.addInitScript(() => {
      const drawn = new Set<string>();
      (window as unknown as { __drawn: Set<string> }).__drawn = drawn;
      const fill = CanvasRenderingContext2D.prototype.fillText;
      CanvasRenderingContext2D.prototype.fillText = function (text: string, x: number, y: number, max?: number) {
        drawn.add(text);
        return max === undefined ? fill.call(this, text, x, y) : fill.call(this, text, x, y, max);
      };
    });
    await signIn(alice, base, 'alice@acme.example');
    await alice.getByRole('navigation', { name: 'Side menu' }).waitFor();
    await alice.goto(`${base}/inventory/view`);
    const graph = alice.getByRole('img', { name: /^Inventory graph \(2D\)/ });
    await graph.and(alice.locator('[data-ready="true"]')).waitFor();
    const count = Number((await graph.getAttribute('aria-label'))!.match(/(\d+) assets/)![1]);
    t.ok(count <= 60, `a small graph (${count} nodes)`);
    await alice.waitForTimeout(4000);
    const drawn = await alice.evaluate(() => [...(window as unknown as { __drawn: Set<string> }).__drawn]);
    t.ok(drawn.includes('acme-shop-prod'), `node names are drawn without hover (${drawn.length} texts)`);
    await shot(alice, 'graph-labels');

    const select = alice.getByRole('combobox', { name: 'DAG orientation' });
    const options = await select.locator('option').evaluateAll((os) => os.map((o) => [o.textContent, o.getAttribute('aria-label'), o.getAttribute('title')]));
    t.same(
      options.map(([text]) => text),
      ['Radial In', 'Bu', 'Lr', 'Rl', 'Radial Out', 'Td'],
      'the spec’s option texts',
    );
    t.same(
      options.map(([, aria]) => aria),
      ['Radial in (roots outside)', 'Bottom-up', 'Left to right', 'Right to left', 'Radial out (roots in the centre)', 'Top-down'],
      'each option’s full name',
    );
    t.equal(await select.getAttribute('title'), 'Top-down', 'the chosen orientation’s full name on hover');

    for (const mode of ['radialout', 'td', 'lr']) {
      await select.selectOption(mode);
      await alice.waitForTimeout(4200); // the layout's 3 s, then the 400 ms fit
      const edge = await graph.locator('canvas').evaluate((c: HTMLCanvasElement) => {
        const { width, height } = c;
        const px = c.getContext('2d')!.getImageData(0, 0, width, height).data;
        let painted = 0;
        for (let y = 0; y < height; y++) {
          for (let x = 0; x < width; x++) {
            if (x > 2 && x < width - 3 && y > 2 && y < height - 3) continue;
            if (px[(y * width + x) * 4 + 3]! > 0) painted++;
          }
        }
        return painted;
      });
      t.equal(edge, 0, `${mode}: nothing drawn at the canvas's edge (the layout is fitted)`);
      await shot(alice, `graph-${mode}`);
    }

    await alice.getByRole('textbox', { name: 'Asset name' }).fill('acme-shop-prod');
    await alice.getByRole('button', { name: 'Search' }).click();
    await alice.waitForTimeout(1500);
    const box = (await graph.locator('canvas').boundingBox())!;
    const details = alice.getByRole('region', { name: 'Asset Details' });
    for (let i = 0; i < 20 && !(await details.isVisible()); i++) {
      await alice.mouse.click(box.x + box.width / 2 + (i % 3) - 1, box.y + box.height / 2);
      await alice.waitForTimeout(300);
    }
    await details.waitFor();
    await shot(alice, 'graph-details');
    const link = details.getByRole('link', { name: 'Show in inventory list' });
    const href = (await link.getAttribute('href'))!;
    t.match(href, /^\/inventory\?asset=/, 'a link to the filtered list');
    const assetName = new URLSearchParams(href.split('?')[1]).get('asset')!;
    await link.click();
    await alice.waitForURL(/\/inventory\?asset=/);
    const table = alice.getByRole('table', { name: 'Google Cloud Inventory' });
    await table.getByRole('row').filter({ hasText: assetName }).first().waitFor();
    t.equal(await alice.getByRole('textbox', { name: 'Filter Google Cloud Inventory' }).inputValue(), assetName, 'the list is filtered by the asset name');
    t.equal(await table.getByRole('row').count(), 2, 'its row alone (and the header)');
    await shot(alice, 'graph-to-row');
  });
});
