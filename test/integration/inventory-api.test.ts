/** The inventory routes over a local sync of acme-corp: lists with filter, sort and paging, graph, node, history, status. */
import t, { type Test } from 'tap';
import { gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { encodeNodeId } from '@cc/shared/inventory/graph.ts';
import { failSyncRun, replaceSnapshot, startSyncRun } from '@cc/shared/db/inventory/snapshot.ts';
import { localInventorySource } from '@cc/shared/adapters/inventory/local.ts';
import { syncInventory } from '../../workers/src/inventory/sync.ts';
import { build, login, bearer } from '../helper.ts';
import { billProjects } from '../inventory-fixtures.ts';

const get = (app: FastifyInstance, token: string, url: string) => app.inject({ method: 'GET', url, headers: bearer(token) });

async function syncedApp(t: Test) {
  const app = await build(t);
  await billProjects(app.env.pool, [['acme-shop-prod', 'Webshop'], ['acme-lab-dev', 'Lab']]);
  const result = await syncInventory({ pool: app.env.pool, source: localInventorySource(app.env.pool) }, 'acme-corp');
  if (result.status !== 'succeeded') throw new Error('sync skipped');
  return { app, result };
}

t.test('asset list: server-side filter, sort and paging', async (t) => {
  const { app, result } = await syncedApp(t);
  const alice = await login(app, 'alice@acme.example');
  const base = '/v1/asset-inventory/acme-corp/assets';

  let res = await get(app, alice, `${base}?limit=5`);
  t.equal(res.statusCode, 200, res.body);
  const first = res.json();
  t.match(first, { total: result.assets, offset: 0, limit: 5 });
  t.equal(first.items.length, 5);
  const names = first.items.map((a: { asset_name: string }) => a.asset_name);
  t.same(names, [...names].sort(), 'ordered by asset_name');
  const next = (await get(app, alice, `${base}?limit=5&offset=5`)).json();
  t.ok(next.items[0].asset_name > names[4], 'the next page follows on');

  res = await get(app, alice, `${base}?asset_type=${encodeURIComponent('compute.googleapis.com/Instance')}&project_id=acme-shop-prod&limit=1000`);
  const vms = res.json();
  t.ok(vms.total > 0);
  t.ok(vms.items.every((a: { asset_type: string; project_id: string }) => a.asset_type === 'compute.googleapis.com/Instance' && a.project_id === 'acme-shop-prod'));

  res = await get(app, alice, `${base}?sort=asset_type&desc=true&limit=1000`);
  const types = res.json().items.map((a: { asset_type: string }) => a.asset_type);
  t.same(types, [...types].sort().reverse(), 'sorted by type, descending');

  res = await get(app, alice, `${base}?search=ACME-LAB&limit=1000`);
  t.ok(res.json().items.length > 0 && res.json().items.every((a: { asset_name: string; display_name: string }) => /acme-lab/i.test(a.asset_name + a.display_name)));

  res = await get(app, alice, `${base}?sort=cost`);
  t.equal(res.statusCode, 400, 'an unknown sort is refused');
  res = await get(app, alice, `${base}?limit=1001`);
  t.equal(res.statusCode, 400, 'pages stop at 1000');
});

t.test('recommendations: state, ticket, monthly saving and the savings figure', async (t) => {
  const { app } = await syncedApp(t);
  const alice = await login(app, 'alice@acme.example');
  const res = await get(app, alice, '/v1/asset-inventory/acme-corp/recommendations?limit=1000');
  t.equal(res.statusCode, 200, res.body);
  const body = res.json();
  t.ok(body.total > 0);
  const projects = body.items.map((r: { project_id: string }) => r.project_id);
  t.same(projects, [...projects].sort(), 'ordered by project_id');
  for (const r of body.items) {
    t.match(r, { state: 'ACTIVE', ticket_key: null });
    if (r.primary_impact_category === 'COST') t.ok(Number(r.monthly_cost) < 0, `${r.recommender_subtype}: a saving per month`);
  }
  t.same(body.savings, { currency: 'EUR', claimed: '0.00', realised: '0.00' });
  const security = await get(app, alice, '/v1/asset-inventory/acme-corp/recommendations?primary_impact_category=SECURITY&limit=1000');
  t.ok(security.json().items.every((r: { primary_impact_category: string; monthly_cost: string | null }) => r.primary_impact_category === 'SECURITY' && r.monthly_cost === null));
});

t.test('graph, node (the * encoding) and history; a node of another customer is 404', async (t) => {
  const { app } = await syncedApp(t);
  const alice = await login(app, 'alice@acme.example');
  const admin = await login(app, 'admin@commandcenter.local');
  const graph = (await get(app, alice, '/v1/asset-inventory/acme-corp/visualize/')).json();
  t.ok(graph.nodes.length > 10);
  t.same(Object.keys(graph.nodes[0]).sort(), ['asset_name', 'id', 'img', 'level', 'module']);
  t.same(Object.keys(graph.links[0]).sort(), ['source', 'target']);

  const vm = graph.nodes.find((n: { img: string }) => n.img === 'compute-instance');
  const nodeUrl = `/v1/asset-inventory/acme-corp/node/${encodeNodeId(vm.id)}`;
  t.match(nodeUrl, /\/node\/\*\*compute\.googleapis\.com\*projects\*/, 'slashes written as *');
  let res = await get(app, alice, nodeUrl);
  t.equal(res.statusCode, 200, res.body);
  const node = res.json();
  t.same(Object.keys(node).sort(), ['asset_type', 'data', 'location', 'name']);
  t.match(node, { name: vm.asset_name, asset_type: 'compute.googleapis.com/Instance' });
  t.match(JSON.parse(node.data), { name: vm.asset_name });

  res = await get(app, alice, `/v1/asset-inventory/acme-corp/node/${encodeNodeId(vm.id)}-gone`);
  t.same([res.statusCode, res.json()], [404, { detail: 'Inventory node not found' }], 'an unknown node');

  // The admin may see globex, which has no such asset: the node of acme-corp is not found there.
  await app.env.pool.query(`UPDATE customer SET inventory = true, gcp_service_account = true WHERE customer_id = 'globex'`);
  await app.access.publish(); // a write outside the api: the access epoch moves before the next request (NOTIFY may lag)
  res = await get(app, admin, `/v1/asset-inventory/globex/node/${encodeNodeId(vm.id)}`);
  t.same([res.statusCode, res.json()], [404, { detail: 'Inventory node not found' }]);
  const bob = await login(app, 'bob@initech.example');
  res = await get(app, bob, nodeUrl);
  t.same([res.statusCode, res.json()], [404, { detail: 'Customer not found' }], 'a user of another customer');

  res = await get(app, alice, `/v1/asset-inventory/acme-corp/history/${encodeNodeId(vm.id)}`);
  t.same(res.json(), { asset_name: vm.id, changes: [] }, 'the baseline records no change');
});

t.test('the flag: off refuses; the status says when the first sync runs; only an admin runs it now', async (t) => {
  const app = await build(t);
  const alice = await login(app, 'alice@acme.example');
  const admin = await login(app, 'admin@commandcenter.local');
  let res = await get(app, alice, '/v1/asset-inventory/acme-corp/sync');
  t.equal(res.statusCode, 200, res.body);
  const status = res.json();
  t.match(status, { inventory: true, last_run: null, last_success: null });
  t.ok(new Date(status.next_run_at).getTime() > Date.now(), 'the next nightly run is ahead');

  res = await app.inject({ method: 'POST', url: '/v1/asset-inventory/acme-corp/sync', headers: bearer(alice) });
  t.equal(res.statusCode, 403, 'a customer cannot start it');
  res = await app.inject({ method: 'POST', url: '/v1/asset-inventory/acme-corp/sync', headers: bearer(admin) });
  t.equal(res.statusCode, 202, res.body);
  const job = await app.producers.queues['inventory-sync'].getJob(res.json().job_id);
  t.same(job?.data, { customer_id: 'acme-corp' }, 'the sync is queued');

  await app.env.pool.query(`UPDATE customer SET inventory = false WHERE customer_id = 'acme-corp'`);
  await app.access.publish(); // a write outside the api: the access epoch moves before the next request (NOTIFY may lag)
  for (const path of ['assets', 'recommendations', 'visualize/', 'node/x', 'history/x']) {
    res = await get(app, alice, `/v1/asset-inventory/acme-corp/${path}`);
    t.same([res.statusCode, res.json()], [403, { detail: 'Inventory is disabled for this customer' }], path);
  }
  t.match((await get(app, alice, '/v1/asset-inventory/acme-corp/sync')).json(), { inventory: false });
  res = await app.inject({ method: 'POST', url: '/v1/asset-inventory/acme-corp/sync', headers: bearer(admin) });
  t.equal(res.statusCode, 403);
});

t.test('the graph follows each new snapshot: kept per snapshot version, never served stale', async (t) => {
  const { app } = await syncedApp(t);
  const alice = await login(app, 'alice@acme.example');
  const url = '/v1/asset-inventory/acme-corp/visualize/';
  const ids = (body: { nodes: { id: string }[] }) => new Set(body.nodes.map((n) => n.id));

  const first = await get(app, alice, url);
  t.equal(first.statusCode, 200, first.body);
  t.match(first.headers['content-type'], /^application\/json/, 'sent as JSON');
  t.equal((await get(app, alice, url)).body, first.body, 'asked again: the same graph');
  const zipped = await app.inject({ method: 'GET', url, headers: { ...bearer(alice), 'accept-encoding': 'gzip, deflate, br' } });
  t.equal(zipped.headers['content-encoding'], 'gzip', 'gzipped for a client that accepts it');
  t.equal(gunzipSync(zipped.rawPayload).toString('utf8'), first.body, 'the same graph once unzipped');
  t.ok(zipped.rawPayload.length < first.body.length / 5, 'and much smaller');

  // A failed run leaves the snapshot, and so the graph, as it was.
  await failSyncRun(app.env.pool, await startSyncRun(app.env.pool, 'acme-corp', 'local'), 'upstream down');
  t.equal((await get(app, alice, url)).body, first.body, 'a failed sync changes nothing');

  // The next snapshot holds one VM fewer: the graph loses its node at once.
  const before = ids(first.json());
  const { rows } = await app.env.pool.query<{ asset_name: string }>(
    `SELECT asset_name FROM inventory_asset WHERE customer_id = 'acme-corp' AND asset_type = 'compute.googleapis.com/Instance' ORDER BY asset_name LIMIT 1`,
  );
  const gone = rows[0]!.asset_name;
  t.ok(before.has(gone), 'the VM is a node before');
  const source = localInventorySource(app.env.pool);
  const scope = { customerId: 'acme-corp', serviceAccountEmail: '', currency: 'EUR' };
  const assets = await source.listAssets(scope);
  await replaceSnapshot(app.env.pool, 'acme-corp', await startSyncRun(app.env.pool, 'acme-corp', 'local'), {
    assets: assets.filter((a) => a.asset_name !== gone),
    recommendations: await source.listRecommendations(scope, assets),
  });
  const after = ids((await get(app, alice, url)).json());
  t.notOk(after.has(gone), 'the VM removed upstream is no longer a node');
  t.equal(after.size, before.size - 1, 'and nothing else changed');
});

t.test('the asset list total follows each new snapshot: counted once per filter and snapshot, never stale', async (t) => {
  const { app, result } = await syncedApp(t);
  const alice = await login(app, 'alice@acme.example');
  const base = '/v1/asset-inventory/acme-corp/assets';
  const vmFilter = `asset_type=${encodeURIComponent('compute.googleapis.com/Instance')}`;
  const total = async (query: string) => {
    const res = await get(app, alice, `${base}?${query}`);
    t.equal(res.statusCode, 200, res.body);
    return res.json().total as number;
  };
  const allBefore = await total('limit=5');
  t.equal(allBefore, result.assets);
  t.equal(await total('limit=5&offset=5'), allBefore, 'another page of the same filter: the same total');
  const vmsBefore = await total(vmFilter);
  t.ok(vmsBefore > 1 && vmsBefore < allBefore, 'a filter has its own total');
  t.equal(await total(`${vmFilter}&sort=region&desc=true`), vmsBefore, 'sorting does not change it');

  // A failed run leaves the snapshot, and so the totals, as they were.
  await failSyncRun(app.env.pool, await startSyncRun(app.env.pool, 'acme-corp', 'local'), 'upstream down');
  t.equal(await total('limit=5'), allBefore);

  // The next snapshot holds one VM fewer: every total that counts it drops at once.
  const { rows } = await app.env.pool.query<{ asset_name: string }>(
    `SELECT asset_name FROM inventory_asset WHERE customer_id = 'acme-corp' AND asset_type = 'compute.googleapis.com/Instance' ORDER BY asset_name LIMIT 1`,
  );
  const source = localInventorySource(app.env.pool);
  const scope = { customerId: 'acme-corp', serviceAccountEmail: '', currency: 'EUR' };
  const assets = await source.listAssets(scope);
  await replaceSnapshot(app.env.pool, 'acme-corp', await startSyncRun(app.env.pool, 'acme-corp', 'local'), {
    assets: assets.filter((a) => a.asset_name !== rows[0]!.asset_name),
    recommendations: await source.listRecommendations(scope, assets),
  });
  t.equal(await total('limit=5'), allBefore - 1, 'the whole list: one fewer');
  t.equal(await total(vmFilter), vmsBefore - 1, 'the VM filter: one fewer');
  const { rows: counted } = await app.env.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM inventory_asset WHERE customer_id = 'acme-corp'`);
  t.equal(await total('limit=5'), counted[0]!.n, 'equal to a count of the stored assets');
});
