/** syncInventory run directly (not yet a job) against the real database, with the local source and with the real one against the fakes. */
import t from 'tap';
import { assetHistory, findAssetByNodeId, listInventoryAssets } from '@cc/shared/db/inventory/asset-read.ts';
import { listGraphAssets } from '@cc/shared/db/inventory/snapshot-read.ts';
import { listInventoryRecommendations } from '@cc/shared/db/inventory/recommendation-read.ts';
import { latestSyncRun } from '@cc/shared/db/inventory/snapshot.ts';
import { buildInventoryGraph, encodeNodeId } from '@cc/shared/inventory/graph.ts';
import { localInventorySource } from '@cc/shared/adapters/inventory/local.ts';
import { syncInventory } from '../../workers/src/inventory/sync.ts';
import { fakeAsset } from '../fakes/cloud-asset-server.ts';
import { testEnv } from '../helper.ts';
import { ACME, billProjects, realSetup, shopAssets } from '../inventory-fixtures.ts';

const ALWAYS_THERE = [
  'cloudresourcemanager.googleapis.com/Folder',
  'cloudresourcemanager.googleapis.com/Organization',
  'cloudresourcemanager.googleapis.com/Project',
  'compute.googleapis.com/Disk',
  'compute.googleapis.com/Instance',
  'compute.googleapis.com/Network',
  'compute.googleapis.com/Subnetwork',
  'iam.googleapis.com/ServiceAccount',
  'storage.googleapis.com/Bucket',
];

t.test('local: an estate of the billed projects, replaced whole, idempotent, with a history of what changed', async (t) => {
  const { pool } = await testEnv(t);
  await billProjects(pool, [['acme-shop-prod', 'Webshop'], ['acme-lab-dev', 'Lab']]);
  const deps = { pool, source: localInventorySource(pool) };

  const first = await syncInventory(deps, 'acme-corp');
  if (first.status !== 'succeeded') throw new Error('sync skipped');
  t.match(first, { added: first.assets, removed: 0, changed: 0 }, 'the first snapshot is all new');
  const page = await listInventoryAssets(pool, 'acme-corp', { limit: 1000 });
  t.equal(page.total, first.assets);
  t.same(page.items.map((a) => a.asset_name), page.items.map((a) => a.asset_name).sort(), 'ordered by asset_name, as the spec reads the collection');
  t.same([...new Set(page.items.map((a) => a.asset_type))].filter((ty) => ALWAYS_THERE.includes(ty)).sort(), ALWAYS_THERE);
  t.same([...new Set(page.items.map((a) => a.project_id))].sort(), ['', 'acme-lab-dev', 'acme-shop-prod']);
  const project = page.items.find((a) => a.asset_type === 'cloudresourcemanager.googleapis.com/Project' && a.project_id === 'acme-shop-prod')!;
  t.equal(project.display_name, 'acme-shop-prod');
  t.same((await findAssetByNodeId(pool, 'acme-corp', encodeNodeId(project.asset_name)))!.data.name, 'Webshop', 'the billing name');
  t.equal(await findAssetByNodeId(pool, 'globex', encodeNodeId(project.asset_name)), null, 'another customer does not see it');
  t.same(await assetHistory(pool, 'acme-corp', project.asset_name), [], 'the baseline records no change');

  const recs = await listInventoryRecommendations(pool, 'acme-corp');
  t.ok(recs.total > 0);
  t.same(recs.items.map((r) => r.project_id), recs.items.map((r) => r.project_id).sort(), 'ordered by project_id');
  for (const r of recs.items) t.ok(r.primary_impact_category === 'SECURITY' ? r.cost === null : Number(r.cost) < 0, `${r.recommender_subtype} saves`);

  const again = await syncInventory(deps, 'acme-corp');
  t.match(again, { status: 'succeeded', added: 0, removed: 0, changed: 0, assets: first.assets });
  t.same(await listInventoryAssets(pool, 'acme-corp', { limit: 1000 }), page, 'the same estate: deterministic');
  t.equal((await pool.query('SELECT count(*)::int AS n FROM inventory_asset_change')).rows[0].n, 0);

  await billProjects(pool, [['acme-data-prod', 'Data Platform']]);
  await pool.query(`DELETE FROM cost_daily WHERE project_id = 'acme-lab-dev'`);
  const third = await syncInventory(deps, 'acme-corp');
  if (third.status !== 'succeeded') throw new Error('sync skipped');
  const after = await listInventoryAssets(pool, 'acme-corp', { limit: 1000 });
  t.notOk(after.items.some((a) => a.project_id === 'acme-lab-dev'), 'assets gone upstream disappear');
  const labCount = page.items.filter((a) => a.project_id === 'acme-lab-dev').length + 1; // + its Non-production folder
  const dataCount = after.items.filter((a) => a.project_id === 'acme-data-prod').length;
  t.match(third, { added: dataCount, removed: labCount, changed: 0 });
  const labProject = page.items.find((a) => a.asset_type === 'cloudresourcemanager.googleapis.com/Project' && a.project_id === 'acme-lab-dev')!;
  t.match(await assetHistory(pool, 'acme-corp', labProject.asset_name), [{ change: 'removed', changed_fields: [], sync_run_id: third.runId }]);

  const graph = buildInventoryGraph(await listGraphAssets(pool, 'acme-corp'));
  const level = new Map(graph.nodes.map((n) => [n.id, n.level]));
  t.equal(graph.nodes.filter((n) => n.level === 0).map((n) => n.img).join(), 'cloudresourcemanager-organization');
  for (const l of graph.links) t.ok(level.get(l.target)! > level.get(l.source)!, 'every link goes down a level');
  for (const vm of after.items.filter((a) => a.asset_type === 'compute.googleapis.com/Instance')) {
    t.ok(graph.links.some((l) => l.source === vm.asset_name && l.target.startsWith(vm.asset_name.replace(/instances\/.*/, 'disks/'))), 'instance → its disk');
  }
});

t.test('local: a claimed recommendation stays claimed, with a new etag; a stale etag is refused', async (t) => {
  const { pool } = await testEnv(t);
  await billProjects(pool, [['acme-shop-prod', 'Webshop'], ['acme-lab-dev', 'Lab'], ['acme-data-prod', 'Data']]);
  const deps = { pool, source: localInventorySource(pool) };
  await syncInventory(deps, 'acme-corp');
  const [rec] = (await listInventoryRecommendations(pool, 'acme-corp', { limit: 1 })).items;
  const mark = { ...ACME, name: rec!.name, etag: rec!.etag, stateMetadata: { ticket: 'MSP-7' } };
  const claimed = await deps.source.markClaimed(mark);
  t.equal(claimed.state, 'CLAIMED');
  await t.rejects(deps.source.markSucceeded(mark), { message: /etag does not match/ });
  await syncInventory(deps, 'acme-corp');
  const stored = (await listInventoryRecommendations(pool, 'acme-corp', { state: 'CLAIMED' })).items;
  t.same(stored.map((r) => [r.name, r.etag]), [[rec!.name, claimed.etag]]);
  t.equal((await deps.source.markSucceeded({ ...mark, etag: claimed.etag })).state, 'SUCCEEDED');
});

t.test('real: changes are recorded; a token rejected mid-way fails the sync and keeps the previous snapshot', async (t) => {
  const { pool } = await testEnv(t);
  const { asset, recommender, source } = await realSetup(t, pool);
  const deps = { pool, source };
  t.match(await syncInventory(deps, 'globex'), { status: 'skipped' }, 'inventory is off for globex');
  t.match(await syncInventory(deps, 'acme-corp'), { status: 'succeeded', assets: 8, recommendations: 2, added: 8 });

  const shop = shopAssets();
  shop[3]!.resource.data.status = 'TERMINATED';
  shop.push(fakeAsset({ projectId: 'acme-shop-prod', projectNumber: '111', ancestors: ['projects/111', 'folders/40', 'organizations/9'], type: 'compute.googleapis.com/Disk', path: 'projects/acme-shop-prod/zones/europe-west1-b/disks/spare', location: 'europe-west1-b', data: { name: 'spare' } }));
  asset.assets.set('acme-shop-prod', shop);
  asset.assets.set('acme-lab-dev', asset.assets.get('acme-lab-dev')!.slice(1));
  const second = await syncInventory(deps, 'acme-corp');
  t.match(second, { status: 'succeeded', assets: 8, added: 1, removed: 1, changed: 1 });
  t.match(await assetHistory(pool, 'acme-corp', shop[3]!.name), [{ change: 'changed', changed_fields: ['data.status'] }]);
  t.match(await assetHistory(pool, 'acme-corp', '//storage.googleapis.com/acme-lab-scratch'), [{ change: 'removed' }]);
  t.same(
    (await listInventoryAssets(pool, 'acme-corp', { violating: true })).items.map((a) => [a.asset_name, a.region, a.violation_rule]),
    [['//storage.googleapis.com/acme-shop-assets', 'EU', 'bucket-uniform-access-disabled']],
  );
  const before = await listInventoryAssets(pool, 'acme-corp', { limit: 1000 });
  const beforeRecs = await listInventoryRecommendations(pool, 'acme-corp');

  asset.pagePlan.set('acme-shop-prod', [3]);
  asset.assets.set('acme-lab-dev', []);
  asset.revokeTokenAfter(2); // lab's one page, shop's first page, then 401
  await t.rejects(syncInventory(deps, 'acme-corp'), { message: /401 UNAUTHENTICATED/ });
  t.match(await latestSyncRun(pool, 'acme-corp'), { status: 'failed', error: /assets.list projects\/acme-shop-prod failed: 401 UNAUTHENTICATED/ });
  t.same(await listInventoryAssets(pool, 'acme-corp', { limit: 1000 }), before, 'the previous snapshot stands');
  t.same(await listInventoryRecommendations(pool, 'acme-corp'), beforeRecs);
  t.same([asset.unhandled, recommender.unhandled], [[], []]);
});
