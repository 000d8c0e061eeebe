/** The real inventory source (official Cloud Asset and Recommender clients over REST) against in-process fakes. */
import t from 'tap';
import { InventorySourceError } from '@cc/shared/ports/inventory.ts';
import { INVENTORY_ASSET_TYPES } from '@cc/shared/adapters/inventory/cloud-asset.ts';
import { testEnv } from '../helper.ts';
import { ACME, IAM_PARENT, MACHINE_TYPE_PARENT, realSetup } from '../inventory-fixtures.ts';

const SCANS = [
  'projects/acme-lab-dev/locations/global/recommenders/google.iam.policy.Recommender',
  'projects/acme-shop-prod/locations/europe-west1-b/recommenders/google.compute.disk.IdleResourceRecommender',
  'projects/acme-shop-prod/locations/europe-west1-b/recommenders/google.compute.instance.IdleResourceRecommender',
  MACHINE_TYPE_PARENT,
  IAM_PARENT,
];
const listPaths = (reqs: { method: string; path: string }[]) =>
  reqs.filter((r) => r.method === 'GET').map((r) => r.path.replace(/^\/v1\//, '').replace(/\/recommendations$/, ''));

t.test('assets: every page is followed, partial and empty ones included, as the service account', async (t) => {
  const { pool } = await testEnv(t);
  const { asset, source } = await realSetup(t, pool);
  asset.pagePlan.set('acme-shop-prod', [2, 0, 1]); // 2, none, 1, then the other 3
  asset.pagePlan.set('acme-lab-dev', [0]); // an empty first page with a token, then both

  const assets = await source.listAssets(ACME);
  t.same(asset.unhandled, []);
  t.equal(assets.length, 8);
  t.same(
    assets.map((a) => a.asset_name),
    [...asset.assets.get('acme-lab-dev')!, ...asset.assets.get('acme-shop-prod')!].map((a) => a.name),
    'projects in id order, assets in page order, none lost or doubled',
  );
  const shop = asset.requests.filter((r) => r.path === '/v1/projects/acme-shop-prod/assets');
  t.same(shop.map((r) => r.query.get('pageToken')), ['', '1.2', '2.2', '3.3']);
  t.equal(asset.requests.filter((r) => r.path === '/v1/projects/acme-lab-dev/assets').length, 2);
  for (const r of asset.requests) {
    t.equal(r.token, 'fake-token');
    t.equal(r.query.get('pageSize'), '1000');
    t.equal(r.query.get('contentType'), '1', 'RESOURCE, as a number');
    t.same(r.query.getAll('assetTypes'), INVENTORY_ASSET_TYPES);
  }

  const vm = assets.find((a) => a.asset_type === 'compute.googleapis.com/Instance')!;
  t.same(vm, {
    asset_name: '//compute.googleapis.com/projects/acme-shop-prod/zones/europe-west1-b/instances/web-1',
    asset_type: 'compute.googleapis.com/Instance',
    project_id: 'acme-shop-prod',
    location: 'europe-west1-b',
    display_name: 'web-1',
    parent: '//cloudresourcemanager.googleapis.com/projects/111',
    ancestors: ['projects/111', 'folders/40', 'organizations/9'],
    update_time: '2026-01-04T10:11:12.345Z',
    data: asset.assets.get('acme-shop-prod')![3]!.resource.data,
  });
  t.equal(assets.find((a) => a.asset_type === 'cloudresourcemanager.googleapis.com/Project')!.display_name, 'acme-shop-prod');
});

t.test('assets: a token rejected mid-way fails the whole listing, without retrying', async (t) => {
  const { pool } = await testEnv(t);
  const { asset, source } = await realSetup(t, pool);
  asset.pagePlan.set('acme-lab-dev', [1, 1]);
  asset.revokeTokenAfter(1);
  const err = await source.listAssets(ACME).then(() => null, (e: unknown) => e);
  t.type(err, InventorySourceError);
  t.match(err, { message: /^Cloud Asset assets.list projects\/acme-lab-dev failed: 401 UNAUTHENTICATED: /, retryable: false });
  t.equal(asset.requests.length, 2, 'first page, then the refused second one; nothing more');
  t.same(asset.unhandled, []);
});

t.test('recommendations: only locations with assets are scanned, mapped exactly, and cached', async (t) => {
  const { pool } = await testEnv(t);
  const { recommender, source } = await realSetup(t, pool);
  const assets = await source.listAssets(ACME);
  const recs = await source.listRecommendations(ACME, assets);
  t.same(recommender.unhandled, []);
  t.same(listPaths(recommender.requests), SCANS, 'global per project, plus the zone that holds the instance and the disk');
  for (const r of recommender.requests) t.equal(r.query.get('pageSize'), '500');
  t.same(recs.find((r) => r.recommender_subtype === 'CHANGE_MACHINE_TYPE'), {
    name: 'projects/111/locations/europe-west1-b/recommenders/google.compute.instance.MachineTypeRecommender/recommendations/rs-1',
    etag: recommender.recommendations.get(MACHINE_TYPE_PARENT)![0]!.etag,
    state: 'ACTIVE',
    recommender: 'google.compute.instance.MachineTypeRecommender',
    recommender_subtype: 'CHANGE_MACHINE_TYPE',
    primary_impact_category: 'COST',
    cost: '-70.9',
    currency: 'EUR',
    cost_duration: '2592000s',
    description: 'Save cost by changing machine type from n2-standard-4 to n2-standard-2.',
    priority: 'P2',
    target_resources: ['//compute.googleapis.com/projects/acme-shop-prod/zones/europe-west1-b/instances/web-1'],
    location: 'europe-west1-b',
    project_id: 'acme-shop-prod',
    last_refresh_time: '2026-01-05T06:00:00.000Z',
    content: {
      overview: { resourceName: '//compute.googleapis.com/projects/acme-shop-prod/zones/europe-west1-b/instances/web-1' },
      operationGroups: [{ operations: [{ action: 'replace', resourceType: 'compute.googleapis.com/Instance', resource: '//compute.googleapis.com/projects/acme-shop-prod/zones/europe-west1-b/instances/web-1', path: '/machineType', value: 'e2-small' }] }],
    },
  });
  const iam = recs.find((r) => r.recommender_subtype === 'REPLACE_ROLE')!;
  t.same([iam.primary_impact_category, iam.priority, iam.cost, iam.currency], ['SECURITY', 'P1', null, null]);

  const before = recommender.requests.length;
  t.same(await source.listRecommendations(ACME, assets), recs, 'the same answer again…');
  t.equal(recommender.requests.length, before, '…without one more Recommender read');
});

t.test('recommendations: 429 RESOURCE_EXHAUSTED backs off and retries; a spent daily quota fails, keeping what was read', async (t) => {
  const { pool } = await testEnv(t);
  const { recommender, source, sleeps } = await realSetup(t, pool);
  const assets = await source.listAssets(ACME);

  recommender.quotaExceededNext(2);
  recommender.readsLeft = 3;
  const err = await source.listRecommendations(ACME, assets).then(() => null, (e: unknown) => e);
  t.type(err, InventorySourceError);
  t.match(err, { message: `Recommender list ${SCANS[3]} failed: 429 RESOURCE_EXHAUSTED: Quota exceeded`, retryable: true });
  // Scan 1: two 429s, then read. Scans 2 and 3: read (daily quota now spent). Scan 4: 429 on the first try and all 3 retries.
  t.same(sleeps, [1000, 2000, 1000, 2000, 4000]);
  t.equal(recommender.requests.length, 3 + 1 + 1 + 4);

  recommender.readsLeft = 100; // the next day
  recommender.requests.length = 0;
  const recs = await source.listRecommendations(ACME, assets);
  t.same(listPaths(recommender.requests), SCANS.slice(3), 'only the scans the failed run had not got');
  t.same(recs.map((r) => r.recommender_subtype).sort(), ['CHANGE_MACHINE_TYPE', 'REPLACE_ROLE']);
  t.same(recommender.unhandled, []);
});

t.test('markClaimed and markSucceeded go out exactly once, with the etag and the ticket key', async (t) => {
  const { pool } = await testEnv(t);
  const { recommender, source } = await realSetup(t, pool);
  const assets = await source.listAssets(ACME);
  const rec = (await source.listRecommendations(ACME, assets)).find((r) => r.recommender_subtype === 'CHANGE_MACHINE_TYPE')!;

  const claimed = await source.markClaimed({ ...ACME, name: rec.name, etag: rec.etag, stateMetadata: { ticket: 'MSP-12' } });
  t.same(recommender.marks, [{ verb: 'markClaimed', name: rec.name, etag: rec.etag, stateMetadata: { ticket: 'MSP-12' } }]);
  t.equal(claimed.state, 'CLAIMED');
  t.not(claimed.etag, rec.etag, 'a new etag comes back');

  const reads = recommender.requests.filter((r) => r.method === 'GET').length;
  const again = (await source.listRecommendations(ACME, assets)).find((r) => r.name === rec.name)!;
  t.equal(recommender.requests.filter((r) => r.method === 'GET').length, reads + 1, 'the scan holding it is read afresh, no other');
  t.same([again.state, again.etag], ['CLAIMED', claimed.etag]);

  recommender.quotaExceededNext(1);
  const refused = await source.markSucceeded({ ...ACME, name: rec.name, etag: claimed.etag, stateMetadata: { ticket: 'MSP-12' } }).then(() => null, (e: unknown) => e);
  t.match(refused, { retryable: true, message: /429 RESOURCE_EXHAUSTED/ });
  t.equal(recommender.marks.length, 1, 'a state change refused on quota is not retried by the adapter');

  // A stale etag (the one read before the claim) is refused; the adapter re-reads the recommendation and retries once.
  const done = await source.markSucceeded({ ...ACME, name: rec.name, etag: rec.etag, stateMetadata: { ticket: 'MSP-12' } });
  t.equal(done.state, 'SUCCEEDED');
  t.ok(recommender.requests.some((r) => r.method === 'GET' && r.path === `/v1/${rec.name}`), 'the recommendation was re-read (recommendations.get)');
  t.same(
    recommender.marks.map((m) => [m.verb, m.etag]),
    [
      ['markClaimed', rec.etag],
      ['markSucceeded', rec.etag],
      ['markSucceeded', claimed.etag],
    ],
  );
  t.same(recommender.unhandled, []);
});
