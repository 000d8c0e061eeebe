/**
 * Inventory in Chromium (spec 000 §2 /inventory, 001 §2.10): the empty state before the first sync, tickets
 * raised from selected assets and recommendations (prefilled summary and description), and the graph in 2D and
 * 3D: orientation, search, a node's Asset Details, the 3D renderer released on leaving. 3D needs WebGL: this
 * test's Chromium renders it in software (SwiftShader). Screenshots land in test-results/screenshots/.
 */
import t from 'tap';
import { chromium, type Browser, type Page } from 'playwright-core';
import { listGraphAssets } from '@cc/shared/db/inventory/snapshot-read.ts';
import { listInventoryAssets } from '@cc/shared/db/inventory/asset-read.ts';
import { listInventoryRecommendations } from '@cc/shared/db/inventory/recommendation-read.ts';
import { buildInventoryGraph } from '@cc/shared/inventory/graph.ts';
import { localInventorySource } from '@cc/shared/adapters/inventory/local.ts';
import { syncInventory } from '../../workers/src/inventory/sync.ts';
import { billProjects } from '../inventory-fixtures.ts';
import { CHROMIUM_ARGS, SCREENSHOT_DIR, signIn, startProduct } from './harness.ts';

const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOT_DIR}/inventory-${name}.png`, fullPage: true });
// WebGL in headless Chromium without a GPU: SwiftShader, the software renderer Chromium ships.
const WEBGL_ARGS = [...CHROMIUM_ARGS.filter((a) => a !== '--disable-gpu'), '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist'];

async function session(browser: Browser, base: string, email: string): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 1500, height: 1100 } })).newPage();
  await signIn(page, base, email);
  await page.getByRole('navigation', { name: 'Side menu' }).waitFor();
  return page;
}

t.test('inventory: empty state, tickets from a selection, the graph in 2D and 3D', async (t) => {
  const { base, app } = await startProduct(t);
  const { pool } = app.env;
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: WEBGL_ARGS });
  t.teardown(() => browser.close());
  await billProjects(pool, [['acme-shop-prod', 'Webshop'], ['acme-lab-dev', 'Lab']]);

  await t.test('before the first sync: when it runs, and an admin can run it now', async (t) => {
    const admin = await session(browser, base, 'admin@commandcenter.local');
    await admin.goto(`${base}/inventory`);
    await admin.getByText(/No inventory yet\. The first sync runs /).waitFor();
    await shot(admin, 'empty');
    await admin.getByRole('button', { name: 'Run sync now' }).click();
    await admin.getByText('Inventory sync started').waitFor();
    const queued = await app.producers.queues['inventory-sync'].getJobs(['waiting', 'delayed', 'active']);
    t.same(queued.map((j) => j.data), [{ customer_id: 'acme-corp' }], 'the sync is queued');
    await admin.context().close();
  });

  const synced = await syncInventory({ pool, source: localInventorySource(pool) }, 'acme-corp');
  t.equal(synced.status, 'succeeded');
  const assets = (await listInventoryAssets(pool, 'acme-corp', { limit: 2 })).items;
  const [rec] = (await listInventoryRecommendations(pool, 'acme-corp', { limit: 1 })).items;
  const alice = await session(browser, base, 'alice@acme.example');

  await t.test('selected assets → a ticket prefilled with them', async (t) => {
    await alice.getByRole('navigation', { name: 'Side menu' }).getByRole('link', { name: 'Inventory' }).click();
    await alice.getByRole('heading', { name: 'Google Cloud Inventory' }).waitFor();
    await alice.getByRole('heading', { name: 'Google Cloud Recommendations' }).waitFor();
    for (const a of assets) await alice.getByRole('checkbox', { name: `Select ${a.asset_name}`, exact: true }).check();
    await shot(alice, 'tables-selected');
    await alice.getByRole('button', { name: 'Raise Ticket (2)' }).click();
    await alice.waitForURL(`${base}/supportrequest/new`);
    t.equal(await alice.getByRole('textbox', { name: 'Summary' }).inputValue(), 'Inventory investigation');
    const description = await alice.getByRole('textbox', { name: 'Description' }).inputValue();
    t.match(description, /^Selected assets \(2\):\n- /);
    for (const a of assets) t.match(description, a.asset_name);
    await alice.getByRole('radio', { name: 'P3' }).check();
    await shot(alice, 'ticket-prefilled');
    await alice.getByRole('button', { name: 'Save' }).click();
    await alice.waitForURL(`${base}/supportrequest`);
    const { rows } = await pool.query(`SELECT summary, description FROM ticket WHERE customer_id = 'acme-corp'`);
    t.same(rows, [{ summary: 'Inventory investigation', description }], 'the ticket has the prefilled summary and description');
  });

  await t.test('a selected recommendation → a ticket that takes it on', async (t) => {
    await alice.goto(`${base}/inventory`);
    await alice.getByRole('heading', { name: 'Google Cloud Recommendations' }).waitFor();
    await alice.getByText(/Savings claimed .* \/ realised .* per month/).waitFor();
    await alice.getByRole('checkbox', { name: `Select ${rec!.recommender_subtype} ${rec!.target_resources[0]}`, exact: true }).check();
    await alice.getByRole('button', { name: 'Raise Ticket (1)' }).click();
    await alice.waitForURL(`${base}/supportrequest/new`);
    t.equal(await alice.getByRole('textbox', { name: 'Summary' }).inputValue(), 'Recommendation investigation');
    t.match(await alice.getByRole('textbox', { name: 'Description' }).inputValue(), /^Selected recommendations \(1\):\n- /);
    await alice.getByRole('radio', { name: 'P3' }).check();
    await alice.getByRole('button', { name: 'Save' }).click();
    await alice.waitForURL(`${base}/supportrequest`);
    const { rows } = await pool.query(`SELECT c.recommendation_name, t.summary FROM inventory_recommendation_claim c JOIN ticket t ON t.id = c.ticket_id`);
    t.same(rows, [{ recommendation_name: rec!.name, summary: 'Recommendation investigation' }], 'the claim is recorded with the ticket');
  });

  await t.test('the graph: 2D, orientation, search, a node click shows its details', async (t) => {
    await alice.goto(`${base}/inventory`);
    await alice.getByRole('button', { name: 'Visualize Inventory' }).click();
    await alice.waitForURL(`${base}/inventory/view`);
    const graph = alice.getByRole('img', { name: /^Inventory graph \(2D\)/ });
    await graph.and(alice.locator('[data-ready="true"]')).waitFor();
    t.equal(await graph.locator('canvas').count(), 1, 'a canvas is drawn');
    const box = (await graph.boundingBox())!;
    t.same([Math.round(box.width), Math.round(box.height)], [600, 600], '600 × 600');
    // before a click, the column beside the graph says what will fill it
    const hint = alice.getByTestId('asset-details-hint');
    t.match(await hint.textContent(), /^Asset DetailsClick a node to see its name, type, location and data here/, 'the details column explains itself');
    const hintBox = (await hint.boundingBox())!;
    t.ok(hintBox.x >= box.x + box.width, `beside the graph (x ${Math.round(hintBox.x)}), not under it`);
    await alice.waitForTimeout(3500); // the layout's 3 s animation
    await shot(alice, 'graph-2d');

    await alice.getByRole('combobox', { name: 'DAG orientation' }).selectOption({ label: 'Lr' });
    t.equal(await graph.getAttribute('data-dag-mode'), 'lr');
    await alice.waitForTimeout(3500);
    await shot(alice, 'graph-2d-lr');

    // the organisation: alone on its level, so no other node lies under the pointer
    const org = buildInventoryGraph(await listGraphAssets(pool, 'acme-corp')).nodes.find((n) => n.level === 0)!;
    await alice.getByRole('textbox', { name: 'Asset name' }).fill('no-such-asset');
    await alice.getByRole('button', { name: 'Search' }).click();
    await alice.getByText('No asset of that name').waitFor();
    await alice.getByRole('textbox', { name: 'Asset name' }).fill(org.asset_name);
    await alice.getByRole('button', { name: 'Search' }).click();
    await alice.waitForTimeout(1500); // centring and zooming take 1 s
    await shot(alice, 'graph-2d-focused');
    const details = alice.getByRole('region', { name: 'Asset Details' });
    // the pointer finds a node only once the canvas has painted the centred frame: click until it answers
    for (let i = 0; i < 20 && !(await details.isVisible()); i++) {
      await graph.locator('canvas').click({ position: { x: 300, y: 300 } });
      await details.waitFor({ timeout: 500 }).catch(() => undefined);
    }
    await details.waitFor();
    t.match(await details.textContent(), `Name${org.asset_name}Typecloudresourcemanager.googleapis.com/Organization`, 'the searched node, found and clicked');
    t.equal(await hint.count(), 0, 'the explanation gives way to the details');
    t.ok(JSON.parse((await alice.getByLabel('Asset data').textContent())!), 'its data as JSON');
    await shot(alice, 'graph-2d-details');

    // the node leads to a ticket about it
    await details.getByRole('button', { name: 'Raise Ticket' }).click();
    await alice.waitForURL(`${base}/supportrequest/new`);
    t.equal(await alice.getByRole('textbox', { name: 'Summary' }).inputValue(), 'Inventory investigation');
    t.match(await alice.getByRole('textbox', { name: 'Description' }).inputValue(), org.asset_name, 'prefilled with the node');
    await alice.goBack();
    await alice.getByRole('img', { name: /^Inventory graph \(2D\)/ }).and(alice.locator('[data-ready="true"]')).waitFor();
  });

  await t.test('3D renders, and its renderer is released on leaving', async (t) => {
    await alice.getByRole('tab', { name: '3D' }).click();
    const graph = alice.getByRole('img', { name: /^Inventory graph \(3D\)/ });
    await graph.and(alice.locator('[data-ready="true"]')).waitFor({ timeout: 60_000 });
    const gl = await graph.locator('canvas').first().evaluate((c: HTMLCanvasElement) => {
      const ctx = c.getContext('webgl2') ?? c.getContext('webgl');
      (window as unknown as { lost: boolean }).lost = false;
      c.addEventListener('webglcontextlost', () => ((window as unknown as { lost: boolean }).lost = true));
      return ctx !== null && !ctx.isContextLost();
    });
    t.ok(gl, 'a live WebGL context');
    await alice.waitForTimeout(3500);
    await shot(alice, 'graph-3d');
    await alice.getByRole('button', { name: 'Back' }).click();
    await alice.waitForURL(`${base}/inventory`);
    t.equal(await alice.evaluate(() => (window as unknown as { lost: boolean }).lost), true, 'the WebGL context was released');
  });
});
