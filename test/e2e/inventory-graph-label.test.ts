/**
 * The inventory graph's hover label shows an asset's name as text: a name such as `<img src=x onerror=…>` (a cloud
 * account names its resources as it likes) appears literally in the tooltip and runs nothing. The 3D view names its
 * nodes without hovering, as text too. 3D needs WebGL: this Chromium renders it in software (SwiftShader).
 */
import t from 'tap';
import { chromium } from 'playwright-core';
import { localInventorySource } from '@cc/shared/adapters/inventory/local.ts';
import { syncInventory } from '../../workers/src/inventory/sync.ts';
import { shortLabel } from '../../web/src/features/inventory/graph-view.ts';
import { billProjects } from '../inventory-fixtures.ts';
import { CHROMIUM_ARGS, SCREENSHOT_DIR, signIn, startProduct } from './harness.ts';

const HOSTILE = '<img src=x onerror="window.__xss=1">';
// WebGL in headless Chromium without a GPU: SwiftShader, the software renderer Chromium ships.
const WEBGL_ARGS = [...CHROMIUM_ARGS.filter((a) => a !== '--disable-gpu'), '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist'];

t.test('asset names in the graph: the hover label and the 3D names are text', async (t) => {
  const { base, app } = await startProduct(t);
  const { pool } = app.env;
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: WEBGL_ARGS });
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

  await t.test('3D: nodes named without hovering, each name as text', async (t) => {
    // a fresh page: the camera where the 3D view puts it, the pointer nowhere near the graph
    const page = await (await browser.newContext({ viewport: { width: 1500, height: 1100 } })).newPage();
    t.teardown(() => page.context().close());
    await signIn(page, base, 'alice@acme.example');
    await page.getByRole('navigation', { name: 'Side menu' }).waitFor();
    await page.goto(`${base}/inventory/view`);
    await page.getByRole('img', { name: /^Inventory graph \(2D\)/ }).and(page.locator('[data-ready="true"]')).waitFor();
    await page.getByRole('tab', { name: '3D' }).click();
    const graph3d = page.getByRole('img', { name: /^Inventory graph \(3D\)/ });
    await graph3d.and(page.locator('[data-ready="true"]')).waitFor({ timeout: 60_000 });
    const count = Number((await graph3d.getAttribute('aria-label'))!.match(/(\d+) assets/)![1]);
    t.ok(count <= 60, `a small graph (${count} nodes)`);
    await page.waitForTimeout(4500); // the layout's 3 s, then the fit
    await page.screenshot({ path: `${SCREENSHOT_DIR}/inventory-graph-3d-labels.png` });
    t.notOk(await page.locator('.float-tooltip-kap').isVisible(), 'no hover label is open');
    const names = graph3d.getByTestId('node-labels').locator('span:not([hidden])');
    const shown = await names.count();
    // nodes of one level side by side would put their names on top of each other: the first (nearest) is named
    t.ok(shown >= 5, `${shown} of the ${count} nodes are named`);
    t.ok(await graph3d.getByText(shortLabel(HOSTILE), { exact: true }).isVisible(), 'the organisation (the hostile name) is named literally, its end as names too long are');
    t.ok(await graph3d.getByText('Production', { exact: true }).isVisible(), 'the folder is named');
    t.ok(await graph3d.getByText('acme-shop-prod', { exact: true }).isVisible(), 'the project is named');
    t.equal(await graph3d.locator('img').count(), 0, 'no element was made from a name');
    const box = (await graph3d.boundingBox())!;
    const rects = await names.evaluateAll((spans) => spans.map((s) => s.getBoundingClientRect().toJSON() as { left: number; right: number; top: number; bottom: number }));
    const outside = rects.filter((r) => (r.left + r.right) / 2 < box.x || (r.left + r.right) / 2 > box.x + box.width || r.top < box.y || r.top > box.y + box.height);
    t.equal(outside.length, 0, 'each name sits inside the graph box');
    const overlaps = rects.filter((a, i) => rects.some((b, j) => j > i && a.left < b.right - 0.5 && a.right > b.left + 0.5 && a.top < b.bottom - 0.5 && a.bottom > b.top + 0.5));
    t.equal(overlaps.length, 0, 'no name covers another');
    t.equal(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss), undefined, 'nothing ran');
  });

  await t.test('2D: node names are never drawn over each other', async (t) => {
    const page = await (await browser.newContext({ viewport: { width: 1500, height: 1100 } })).newPage();
    t.teardown(() => page.context().close());
    // what each canvas frame writes (a frame starts with clearing the canvas), as screen boxes
    await page.addInitScript(() => {
      type Box = { text: string; left: number; right: number; top: number; bottom: number };
      const proto = CanvasRenderingContext2D.prototype;
      const clear = proto.clearRect;
      const fill = proto.fillText;
      proto.clearRect = function (...args: [number, number, number, number]) {
        (this.canvas as unknown as { __names: Box[] }).__names = [];
        return clear.apply(this, args);
      };
      proto.fillText = function (text: string, x: number, y: number, max?: number) {
        const m = this.getTransform();
        const width = this.measureText(text).width * m.a;
        const px = Number(/([\d.]+)px/.exec(this.font)?.[1] ?? 10) * m.d;
        const left = m.a * x + m.e - (this.textAlign === 'center' ? width / 2 : 0);
        const top = m.d * y + m.f;
        ((this.canvas as unknown as { __names?: Box[] }).__names ??= []).push({ text, left, right: left + width, top, bottom: top + px });
        return max === undefined ? fill.call(this, text, x, y) : fill.call(this, text, x, y, max);
      };
    });
    await signIn(page, base, 'alice@acme.example');
    await page.getByRole('navigation', { name: 'Side menu' }).waitFor();
    await page.goto(`${base}/inventory/view`);
    const graph = page.getByRole('img', { name: /^Inventory graph \(2D\)/ });
    await graph.and(page.locator('[data-ready="true"]')).waitFor();
    for (const mode of ['td', 'lr']) {
      await page.getByRole('combobox', { name: 'DAG orientation' }).selectOption(mode);
      await page.waitForTimeout(4500); // the layout's 3 s, then the fit
      await page.screenshot({ path: `${SCREENSHOT_DIR}/inventory-graph-2d-names-${mode}.png` });
      const names = await graph.locator('canvas').evaluate((c) => (c as unknown as { __names?: { text: string; left: number; right: number; top: number; bottom: number }[] }).__names ?? []);
      t.ok(names.some((n) => n.text === 'acme-shop-prod'), `${mode}: ${names.length} names drawn, the project's among them`);
      const over = names.flatMap((a, i) => names.slice(i + 1).filter((b) => a.left < b.right - 0.5 && a.right > b.left + 0.5 && a.top < b.bottom - 0.5 && a.bottom > b.top + 0.5).map((b) => `${a.text} / ${b.text}`));
      t.same(over, [], `${mode}: no name drawn over another`);
    }
  });
});
