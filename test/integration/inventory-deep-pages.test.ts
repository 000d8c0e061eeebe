/**
 * Deep asset pages seek from the anchor before them instead of reading every row before the offset, and stay exactly
 * the pages OFFSET gives: every sort, both directions, null regions, a search, and the next snapshot.
 */
import t from 'tap';
import type { InventoryAsset } from '@cc/shared/ports/inventory.ts';
import { ANCHOR_EVERY, ASSET_SORTS, assetPageQuery, listInventoryAssets, type AssetQuery } from '@cc/shared/db/inventory/asset-read.ts';
import { replaceSnapshot, startSyncRun } from '@cc/shared/db/inventory/snapshot.ts';
import { AssetPages } from '../../api/src/inventory/asset-pages.ts';
import { build, login, bearer } from '../helper.ts';

const N = 3_000;
const ZONES = ['europe-west1-b', 'us-central1-a', 'us-east1-d', null];

function estate(n: number, salt: string): InventoryAsset[] {
  return Array.from({ length: n }, (_, i) => {
    const project = `proj-${String(i % 7).padStart(2, '0')}`;
    // a quarter global (no region), and many rows sharing a region and a type: ties broken by name
    const zone = ZONES[i % ZONES.length] ?? null;
    return {
      asset_name: `//compute.googleapis.com/projects/${project}/disks/${salt}-${String((i * 7919) % n).padStart(5, '0')}`,
      asset_type: i % 3 ? 'compute.googleapis.com/Disk' : 'compute.googleapis.com/Instance',
      project_id: project,
      location: zone,
      display_name: `${i % 5 ? 'disk' : 'instance'}-${i}`,
      parent: null,
      ancestors: ['organizations/1'],
      update_time: '2026-01-04T10:00:00Z',
      data: { i },
    };
  });
}

t.setTimeout(300_000);

t.test('every deep page through the route is the OFFSET page, for every sort and direction', async (t) => {
  const app = await build(t);
  const { pool } = app.env;
  await replaceSnapshot(pool, 'acme-corp', await startSyncRun(pool, 'acme-corp', 'local'), { assets: estate(N, 'a'), recommendations: [] });
  await pool.query('ANALYZE inventory_asset');
  const alice = await login(app, 'alice@acme.example');
  const page = async (q: AssetQuery) => {
    const qs = new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)]));
    const res = await app.inject({ method: 'GET', url: `/v1/asset-inventory/acme-corp/assets?${qs}`, headers: bearer(alice) });
    if (res.statusCode !== 200) t.fail(`${qs}: ${res.statusCode} ${res.body}`);
    return res.json() as { total: number; items: { asset_name: string; update_time: string | null }[] };
  };
  // offsets before, on and after anchors, the last page and beyond the end
  const offsets = [ANCHOR_EVERY - 1, ANCHOR_EVERY, ANCHOR_EVERY + 1, 1_234, 2 * ANCHOR_EVERY - 3, N - 40, N + 10];
  let compared = 0;
  for (const search of [undefined, 'instance']) {
    for (const sort of ASSET_SORTS) {
      for (const desc of [false, true]) {
        for (const offset of offsets) {
          const q: AssetQuery = { sort, desc, offset, limit: 50, ...(search ? { search } : {}) };
          const expected = await listInventoryAssets(pool, 'acme-corp', q);
          const got = await page(q);
          const same = got.total === expected.total && JSON.stringify(got.items.map((a) => a.asset_name)) === JSON.stringify(expected.items.map((a) => a.asset_name));
          if (!same) t.fail(`search ${search} sort ${sort} desc ${desc} offset ${offset}: ${got.items[0]?.asset_name} … vs ${expected.items[0]?.asset_name} …`);
          compared++;
        }
      }
    }
  }
  t.equal(compared, 2 * ASSET_SORTS.length * 2 * offsets.length, 'every page compared equal');

  // The next snapshot re-orders the list: the anchors of the old one are never used on it.
  await replaceSnapshot(pool, 'acme-corp', await startSyncRun(pool, 'acme-corp', 'local'), { assets: estate(N - 100, 'b'), recommendations: [] });
  const q: AssetQuery = { sort: 'region', offset: 1_500, limit: 50 };
  t.same((await page(q)).items.map((a) => a.asset_name), (await listInventoryAssets(pool, 'acme-corp', q)).items.map((a) => a.asset_name), 'the new snapshot’s page');
});

t.test('a deep page reads the rows after its anchor, not every row before its offset', async (t) => {
  const app = await build(t);
  const { pool } = app.env;
  await replaceSnapshot(pool, 'acme-corp', await startSyncRun(pool, 'acme-corp', 'local'), { assets: estate(N, 'a'), recommendations: [] });
  await pool.query('ANALYZE inventory_asset');
  const pages = new AssetPages(pool);
  for (const sort of ASSET_SORTS) {
    const q = { sort, offset: N - 300, limit: 100 };
    const { text, values } = assetPageQuery('acme-corp', q, await pages.seek('acme-corp', q));
    const plan = (await pool.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, values)).rows[0]['QUERY PLAN'][0].Plan;
    // every row a scan of inventory_asset produced, summed over the plan's scans
    const read = (node: { 'Relation Name'?: string; 'Actual Rows': number; 'Actual Loops': number; Plans?: unknown[] }): number =>
      (node['Relation Name'] === 'inventory_asset' ? node['Actual Rows'] * node['Actual Loops'] : 0) +
      ((node.Plans ?? []) as (typeof node)[]).reduce((sum, p) => sum + read(p), 0);
    t.ok(read(plan) <= ANCHOR_EVERY + 100, `sort ${sort}, offset ${q.offset}: ${read(plan)} rows read`);
  }
});
