/**
 * The inventory graph's hover label shows an asset's name as text: a name such as `<img src=x onerror=…>` (a cloud
 * account names its resources as it likes) appears literally in the tooltip and runs nothing.
 */
import t from 'tap';
import { chromium } from 'playwright-core';
import { localInventorySource } from '@cc/shared/adapters/inventory/local.ts';
import { syncInventory } from '../../workers/src/inventory/sync.ts';
import { billProjects } from '../inventory-fixtures.ts';
import { CHROMIUM_ARGS, SCREENSHOT_DIR, signIn, startProduct } from './harness.ts';

const HOSTILE = '<img src=x onerror="window.__xss=1">';

t.test('a hostile asset name in the graph tooltip is text', async (t) => {
  const { base, app } = await startProduct(t);
  const { pool } = app.env;
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  t.teardown(() => browser.close());
  await billProjects(pool, [['acme-shop-prod', 'Webshop']]);
  t.equal((await syncInventory({ pool, source: localInventorySource(pool) }, 'acme-corp')).status, 'succeeded');
  // The organisation: alone on its level, so once centred nothing else lies under the pointer.
  const renamed = await pool.query(
    "UPDATE inventory_asset SET display_name = $1 WHERE customer_id = 'acme-corp' AND asset_type = 'cloudresourcemanager.googleapis.com/Organization'",
    [HOSTILE],
  );
  t.equal(renamed.rowCount, 1);

  const page = await (await browser.newContext({ viewport: { width: 1500, height: 1100 } })).newPage();
  await signIn(page, base, 'alice@acme.example');
  await page.getByRole('navigation', { name: 'Side menu' }).waitFor();
  await page.goto(`${base}/inventory/view`);
  const graph = page.getByRole('img', { name: /^Inventory graph \(2D\)/ });
  await graph.and(page.locator('[data-ready="true"]')).waitFor();
  await page.waitForTimeout(3500); // the layout's animation
  await page.getByRole('textbox', { name: 'Asset name' }).fill(HOSTILE);
  await page.getByRole('button', { name: 'Search' }).click();
  await page.waitForTimeout(1500); // centring and zooming take 1 s

  const canvas = graph.locator('canvas');
  const box = (await canvas.boundingBox())!;
  const tooltip = page.locator('.float-tooltip-kap');
  // the pointer finds a node once the centred frame is painted: move over the centre until the label shows
  let shown = '';
  for (let i = 0; i < 40 && !shown; i++) {
    await page.mouse.move(box.x + box.width / 2 + (i % 2), box.y + box.height / 2);
    await page.waitForTimeout(150);
    shown = (await tooltip.isVisible()) ? ((await tooltip.textContent()) ?? '') : '';
  }
  await page.screenshot({ path: `${SCREENSHOT_DIR}/inventory-graph-hostile-label.png` });
  t.equal(shown, HOSTILE, 'the name is shown literally');
  t.equal(await tooltip.locator('img').count(), 0, 'no element was made from it');
  t.equal(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss), undefined, 'nothing ran');
});
