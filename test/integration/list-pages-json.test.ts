/**
 * The asset, recommendation, project request and license order lists answer JSON text made in PostgreSQL (issue 34: most of a
 * page's cost was parsing rows into objects and serialising them again). Each answer is the one the rows gave through
 * the objects before: the same fields in the schema's order, dates as toISOString wrote them (milliseconds cut),
 * nulls, escaped text, the step label and budget note; and the monthly cost is exact decimal arithmetic, as the
 * savings figure is, where the float of before was a cent off.
 */
import t from 'tap';
import type { InventoryAsset, Recommendation } from '@cc/shared/ports/inventory.ts';
import { ASSET_SORTS, listInventoryAssets, type AssetQuery } from '@cc/shared/db/inventory/asset-read.ts';
import { replaceSnapshot, startSyncRun } from '@cc/shared/db/inventory/snapshot.ts';
import { countProjectRequests, listProjectRequests } from '@cc/shared/db/provisioning.ts';
import { asActor, insertLicense } from '@cc/shared/db/licenses/licenses.ts';
import { listOrders } from '@cc/shared/db/licenses/orders.ts';
import { withTransaction } from '@cc/shared/db/pool.ts';
import { LicenseOrder } from '@cc/shared/schemas/licenses.ts';
import { InventoryItem, RecommendationItem } from '@cc/shared/schemas/inventory.ts';
import { ProjectRecord } from '@cc/shared/schemas/provisioning.ts';
import { toRecord } from '../../api/src/provisioning/present.ts';
import { build, login, bearer } from '../helper.ts';

const ZONES = ['europe-west1-b', null, 'us-east1-d'];
const TIMES = ['2026-01-04T10:00:00.123999Z', null, '2026-03-01T23:59:59.9999Z', '2025-12-31T00:00:00Z'];

function estate(n: number): InventoryAsset[] {
  return Array.from({ length: n }, (_, i) => {
    const project = `proj-${String(i % 5).padStart(2, '0')}`;
    return {
      asset_name: `//compute.googleapis.com/projects/${project}/disks/d-${String((i * 7919) % n).padStart(4, '0')}`,
      asset_type: i % 3 ? 'compute.googleapis.com/Disk' : 'compute.googleapis.com/Instance',
      project_id: project,
      location: ZONES[i % ZONES.length] ?? null,
      // text JSON must escape: quotes, a backslash, a tab and a non-ASCII letter
      display_name: `${i % 4 ? 'disk' : 'instance'} "${i}"\\\té`,
      parent: null,
      ancestors: ['organizations/1'],
      update_time: TIMES[i % TIMES.length] ?? null,
      data: { i },
    };
  });
}

/** A cost as numeric(24,9) gives it back. */
const stored = (cost: string | null) => (cost === null ? null : `${cost.split('.')[0]}.${(cost.split('.')[1] ?? '').padEnd(9, '0')}`);
const iso = (d: Date | null) => (d === null ? null : d.toISOString());

t.test('asset pages: the rows as the objects gave them, first and deep pages, every sort', async (t) => {
  const app = await build(t);
  const { pool } = app.env;
  await replaceSnapshot(pool, 'acme-corp', await startSyncRun(pool, 'acme-corp', 'local'), { assets: estate(1_300), recommendations: [] });
  const alice = await login(app, 'alice@acme.example');
  let compared = 0;
  for (const search of [undefined, 'instance']) {
    for (const sort of ASSET_SORTS) {
      for (const desc of [false, true]) {
        // 0 reads from the start; 1,010 seeks from a kept anchor
        for (const offset of [0, 1_010]) {
          const q: AssetQuery = { sort, desc, offset, limit: 40, ...(search ? { search } : {}) };
          const qs = new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)]));
          const res = await app.inject({ method: 'GET', url: `/v1/asset-inventory/acme-corp/assets?${qs}`, headers: bearer(alice) });
          const expected = await listInventoryAssets(pool, 'acme-corp', q);
          const want = JSON.stringify({ total: expected.total, offset, limit: 40, items: expected.items.map((a) => ({ ...a, update_time: iso(a.update_time) })) });
          if (res.statusCode !== 200 || res.body !== want) t.fail(`${qs}: ${res.statusCode} ${res.body.slice(0, 300)} … vs ${want.slice(0, 300)}`);
          compared++;
        }
      }
    }
  }
  t.equal(compared, 2 * ASSET_SORTS.length * 2 * 2, 'every page the same text, byte for byte');
  const res = await app.inject({ method: 'GET', url: '/v1/asset-inventory/acme-corp/assets?limit=4', headers: bearer(alice) });
  t.match(res.headers['content-type'], /^application\/json/);
  const body = res.json() as { items: Record<string, unknown>[] };
  t.same(Object.keys(body.items[0]!), Object.keys(InventoryItem.properties), 'the schema’s fields, in its order');
  t.ok(
    body.items.every((a) => a.update_time === null || TIMES.some((s) => s !== null && new Date(s).toISOString() === a.update_time)),
    'dates as toISOString writes them: milliseconds cut, not rounded',
  );
  const empty = await app.inject({ method: 'GET', url: '/v1/asset-inventory/acme-corp/assets?search=nothing-like-this', headers: bearer(alice) });
  t.same(empty.json(), { total: 0, offset: 0, limit: 100, items: [] }, 'no match: an empty page');
});

function recommendation(i: number, cost: string | null, duration: string | null): Recommendation {
  return {
    name: `projects/1/locations/global/recommenders/google.compute.instance.MachineTypeRecommender/recommendations/r-${String(i).padStart(2, '0')}`,
    etag: `e${i}`,
    state: 'ACTIVE',
    recommender: 'google.compute.instance.MachineTypeRecommender',
    recommender_subtype: 'CHANGE_MACHINE_TYPE',
    primary_impact_category: cost === null ? 'SECURITY' : 'COST',
    cost,
    currency: cost === null ? null : 'EUR',
    cost_duration: duration,
    description: `Resize "vm-${i}" \\ now`,
    priority: 'P2',
    target_resources: i % 2 ? [`//compute.googleapis.com/projects/acme-shop-prod/zones/a/instances/vm-${i}`, 'a "quoted", one'] : [],
    location: 'europe-west1-b',
    project_id: 'acme-shop-prod',
    last_refresh_time: i % 3 ? '2026-11-01T08:00:00.5555Z' : null,
    content: {},
  };
}

t.test('recommendation pages: the presented rows, with the monthly cost exact to the cent', async (t) => {
  const app = await build(t);
  const { pool } = app.env;
  // [cost, duration, monthly cost]
  const cases: [string | null, string | null, string | null][] = [
    ['-12.34', '2592000s', '-12.34'],
    // 1.005 is 1.00499999999999989… as a float: the float's toFixed(2) said -1.00
    ['-1.005', '2592000s', '-1.01'],
    ['-100', '86400s', '-3000.00'],
    ['-7', '604800s', '-30.00'],
    ['-1', '7776000s', '-0.33'],
    ['-2.5', '1296000.5s', '-5.00'],
    ['5', '0s', null],
    ['5', null, null],
    [null, null, null],
  ];
  await replaceSnapshot(pool, 'acme-corp', await startSyncRun(pool, 'acme-corp', 'local'), {
    assets: [],
    recommendations: cases.map(([cost, duration], i) => recommendation(i, cost, duration)),
  });
  const alice = await login(app, 'alice@acme.example');
  const res = await app.inject({ method: 'GET', url: '/v1/asset-inventory/acme-corp/recommendations?sort=cost&desc=true', headers: bearer(alice) });
  t.equal(res.statusCode, 200, res.body);
  const body = res.json() as { total: number; items: Record<string, unknown>[]; savings: unknown };
  t.equal(body.total, cases.length);
  t.same(Object.keys(body.items[0]!), Object.keys(RecommendationItem.properties), 'the schema’s fields, in its order');
  const byName = new Map(body.items.map((r) => [r.name as string, r]));
  cases.forEach(([cost, duration, monthly], i) => {
    const r = recommendation(i, cost, duration);
    const { etag: _etag, content: _content, ...shown } = r;
    t.same(
      byName.get(r.name),
      {
        ...shown,
        cost: stored(cost),
        monthly_cost: monthly,
        last_refresh_time: r.last_refresh_time === null ? null : new Date(r.last_refresh_time).toISOString(),
        ticket_key: null,
      },
      `${cost} per ${duration}: ${monthly}`,
    );
  });
  // the order of before: cost descending, nulls last, then name
  t.same(
    body.items.map((r) => r.cost),
    ['5', '5', '-1', '-1.005', '-2.5', '-7', '-12.34', '-100', null].map(stored),
  );
});

t.test('project request pages: what toRecord made of the rows, step label and budget note included', async (t) => {
  const app = await build(t);
  const { pool } = app.env;
  const log = [
    { step: 'budget', outcome: 'retrying', detail: 'Budgets API 503', at: '2026-11-01T10:00:00Z' },
    { step: 'budget', outcome: 'done', detail: 'cc-acme-a: 1000 EUR a month', at: '2026-11-01T10:01:00Z' },
    { step: 'budget', outcome: 'done', detail: 'cc-acme-a: 1087.00 USD a month (the billing account’s currency): "x"', at: '2026-11-01T10:02:00Z' },
    { step: 'labels', outcome: 'done', detail: 'no colon here', at: '2026-11-01T10:03:00Z' },
  ];
  const template = { project_name: 'acme-{bu}-{product}-{env}', project_type: 'analytics', owner_label: 'cost-owner', budget: 1000, default_admin: 'alice@acme.example', quota: { bigquery_analysis: 10, compute_engine_cpus: 24 } };
  // [name, state, current_step, failed_step, error, step log]
  const rows: [string, string, string | null, string | null, string | null, unknown[]][] = [
    ['req-a', 'Active', null, null, null, log],
    ['req-b', 'Creating', 'labels', null, null, log.slice(0, 1)],
    ['req-c', 'Failed', null, 'budget', 'Budgets API said "no"', log.slice(0, 1)],
    ['req-d', 'Pending approval', null, null, null, []],
    ['req-e', 'Active', null, null, null, [{ step: 'budget', outcome: 'done', detail: 'plain note', at: '2026-11-01T10:00:00Z' }]],
  ];
  for (const [name, state, current, failed, error, steps] of rows) {
    await pool.query(
      `INSERT INTO project_request (customer_id, requester, bu, product, env, owner_value, template_name, folder_name, folder_number,
                                    project_type, project_template, project_name, state, current_step, failed_step, error, step_log,
                                    decided_by, decided_at, completed_at)
       VALUES ('acme-corp', 'alice@acme.example', 'retail', 'webshop', 'dev', 'alice', 'Standard analytics project', 'analytics', '123',
               'analytics', $1, $2, $3, $4, $5, $6, $7, CASE WHEN $3 <> 'Pending approval' THEN 'admin@commandcenter.local' END,
               CASE WHEN $3 <> 'Pending approval' THEN now() END, CASE WHEN $3 = 'Active' THEN now() END)`,
      [JSON.stringify(template), name, state, current, failed, error, JSON.stringify(steps)],
    );
  }
  const alice = await login(app, 'alice@acme.example');
  const res = await app.inject({ method: 'GET', url: '/v1/projectprovisioning/acme-corp/?limit=4&offset=1', headers: bearer(alice) });
  t.equal(res.statusCode, 200, res.body);
  t.equal(res.headers['x-total-count'], '5');
  const fields = Object.keys(ProjectRecord.properties);
  const pick = (r: Record<string, unknown>) => Object.fromEntries(fields.map((k) => [k, r[k]]));
  const expected = (await listProjectRequests(pool, 'acme-corp', { offset: 1, limit: 4 })).map((r) => pick(toRecord(r) as unknown as Record<string, unknown>));
  const body = res.json() as Record<string, unknown>[];
  t.same(body, expected, 'the page toRecord made');
  t.same(Object.keys(body[0]!), fields, 'the schema’s fields, in its order');
  t.same(
    body.map((r) => [r.project_name, r.step_label, r.budget_note]),
    [
      ['req-b', 'Setting labels', null],
      ['req-c', 'Creating budget', null],
      ['req-d', null, null],
      ['req-e', null, 'plain note'],
    ],
  );
  const first = (await app.inject({ method: 'GET', url: '/v1/projectprovisioning/acme-corp/?limit=1', headers: bearer(alice) })).json() as Record<string, unknown>[];
  t.equal(first[0]!.budget_note, '1087.00 USD a month (the billing account’s currency): "x"', 'the last done budget entry, after its name');
  const bob = await login(app, 'bob@initech.example');
  const other = await app.inject({ method: 'GET', url: '/v1/projectprovisioning/acme-corp/', headers: bearer(bob) });
  t.same([other.statusCode, other.json()], [404, { detail: 'Customer not found' }], 'another customer’s caller: refused');
});

t.test('the project request total is kept, moved by every insert and delete, not recounted per page', async (t) => {
  const app = await build(t);
  const { pool } = app.env;
  const alice = await login(app, 'alice@acme.example');
  const total = async () => (await app.inject({ method: 'GET', url: '/v1/projectprovisioning/acme-corp/?limit=1', headers: bearer(alice) })).headers['x-total-count'];
  const insert = (customer: string, names: string[], db: { query: typeof pool.query } = pool) =>
    db.query(
      `INSERT INTO project_request (customer_id, requester, bu, product, env, owner_value, template_name, folder_name, folder_number,
                                    project_type, project_template, project_name)
       SELECT $1, 'alice@acme.example', 'retail', 'webshop', 'dev', 'alice', 'Standard analytics project', 'analytics', '123',
              'analytics', '{}', unnest($2::text[])`,
      [customer, names],
    );
  const before = await countProjectRequests(pool, 'acme-corp');
  t.equal(await total(), String(before));
  await insert('acme-corp', ['kept-1', 'kept-2', 'kept-3']);
  t.equal(await total(), String(before + 3), 'three in one statement');
  await insert('globex', ['kept-g1']);
  t.equal(await total(), String(before + 3), 'another customer’s request leaves the total');
  await pool.query(`DELETE FROM project_request WHERE project_name IN ('kept-1', 'kept-2')`);
  t.equal(await total(), String(before + 1));
  t.equal(await total(), String(await countProjectRequests(pool, 'acme-corp')), 'the kept total is the count of the rows');

  // A write the triggers do not see (switched off for this session only): the page does not count the rows again.
  const client = await pool.connect();
  try {
    await client.query(`SET session_replication_role = replica`);
    await insert('acme-corp', ['unseen'], client);
    t.equal(await total(), String(before + 1), 'kept: not recounted on a page');
    await client.query(`DELETE FROM project_request WHERE project_name = 'unseen'`);
  } finally {
    await client.query(`RESET session_replication_role`);
    client.release();
  }
  // A deleted customer's counter goes with it.
  t.same((await pool.query(`SELECT n FROM project_request_count WHERE customer_id = 'globex'`)).rows, [{ n: 1 }]);
  await pool.query(`DELETE FROM customer WHERE customer_id = 'globex'`);
  t.same((await pool.query(`SELECT n FROM project_request_count WHERE customer_id = 'globex'`)).rows, []);
});

t.test('license orders: the list the rows gave through the objects, byte for byte, with its day range', async (t) => {
  const app = await build(t);
  const { pool } = app.env;
  await withTransaction(pool, async (tx) => {
    await asActor(tx, 'test');
    await insertLicense(tx, { customer_id: 'acme-corp', sku_id: '1010020099', sku_name: 'Test "SKU" \\ é', volume_total: 10, volume_available: 2, threshold: 5, new_order: 3, auto_order: false });
  });
  await pool.query(
    `INSERT INTO license_order (customer_id, sku_id, sku_name, order_amount, order_by, comment, status, order_time, decided_by, decided_at, seats_target, error)
     SELECT 'acme-corp', '1010020099', 'Test "SKU" \\ é', 1 + i, 'alice@acme.example', 'order "' || i || E'"\\t', s.status,
            timestamptz '2026-11-20 07:30:00.123456+00' - i * interval '7 hours', CASE WHEN s.status <> 'Pending' THEN 'admin@commandcenter.local' END,
            CASE WHEN s.status <> 'Pending' THEN timestamptz '2026-11-21 00:00:00.9999+00' END, CASE WHEN s.status = 'Approved' THEN 12 END,
            CASE WHEN s.status = 'Failed' THEN 'Google said "no"' END
       FROM generate_series(0, 11) AS i, LATERAL (SELECT (ARRAY['Pending', 'Approved', 'Fulfilled', 'Rejected', 'Failed'])[1 + i % 5] AS status) s`,
  );
  const alice = await login(app, 'alice@acme.example');
  const fields = Object.keys(LicenseOrder.properties);
  const ranges: Record<string, string>[] = [{}, { start_date: '2026-11-18', end_date: '2026-11-19' }, { start_date: '2030-01-01' }];
  for (const range of ranges) {
    const res = await app.inject({ method: 'GET', url: `/v1/licenses/orders/history/acme-corp?${new URLSearchParams(range)}`, headers: bearer(alice) });
    const rows = await listOrders(pool, 'acme-corp', range);
    const want = JSON.stringify(rows.map((o) => Object.fromEntries(fields.map((k) => [k, o[k as keyof typeof o]]))));
    t.equal(res.statusCode, 200);
    t.equal(res.body, want, `${JSON.stringify(range)}: ${rows.length} orders, the same text`);
  }
  t.ok((await listOrders(pool, 'acme-corp', { start_date: '2026-11-18', end_date: '2026-11-19' })).length > 0, 'the range holds orders');
  const bob = await login(app, 'bob@initech.example');
  const other = await app.inject({ method: 'GET', url: '/v1/licenses/orders/history/acme-corp', headers: bearer(bob) });
  t.same([other.statusCode, other.json()], [404, { detail: 'Customer not found' }], 'another customer’s caller: refused');
});
