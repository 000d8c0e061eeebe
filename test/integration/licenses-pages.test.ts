/**
 * The license orders and history lists are paged on the server (issue 34): one page newest first, the count of the
 * whole list in X-Total-Count (kept by migration 126's triggers, not recounted per request), limits refused with a
 * detail, and the tenant guard, the viewer and the workspace_license flag as they were.
 */
import t, { type Test } from 'tap';
import { listHistory } from '@cc/shared/db/licenses/history.ts';
import { build, login, bearer } from '../helper.ts';

const ACME = 'acme-corp';
const SKU = '1010020028';
const ORDERS = 25;

async function setup(t: Test) {
  const app = await build(t);
  await app.pg.query(`UPDATE customer SET domain_name = 'initech.example', workspace_license = true WHERE customer_id = 'initech'`);
  await app.access.publish();
  const [alice, victor, bob] = await Promise.all(['alice@acme.example', 'victor@acme.example', 'bob@initech.example'].map((u) => login(app, u)));
  const get = async (token: string, url: string) => {
    const res = await app.inject({ method: 'GET', url, headers: bearer(token) });
    return { status: res.statusCode, total: res.headers['x-total-count'], body: res.json() };
  };
  const created = await app.inject({
    method: 'PUT',
    url: '/v1/licenses/acme.example',
    headers: bearer(alice),
    payload: { sku_id: SKU, threshold: 5, auto_order: false, new_order: 1 },
  });
  t.equal(created.statusCode, 201);
  // one order a day, the newest on 2026-11-25 (US/Pacific noon), so the order of the list is known
  await app.pg.query(
    `INSERT INTO license_order (customer_id, sku_id, sku_name, order_amount, order_by, comment, order_time)
     SELECT $1, $2, 'Google Workspace Business Standard', i, 'alice@acme.example', 'order ' || i,
            ('2026-11-25 12:00'::timestamp - (($3 - i) || ' days')::interval) AT TIME ZONE 'US/Pacific'
       FROM generate_series(1, $3) i`,
    [ACME, SKU, ORDERS],
  );
  return { app, alice, victor, bob, get };
}

const ids = (rows: { order_id?: string; id?: string }[]) => rows.map((r) => r.order_id ?? r.id);

t.test('orders: a page of N newest first, the total in the header, a deep page, past the end', async (t) => {
  const { get, alice } = await setup(t);
  const url = `/v1/licenses/orders/history/${ACME}`;
  const all = await get(alice, `${url}?limit=500`);
  t.equal(all.status, 200);
  t.equal(all.body.length, ORDERS);
  t.same(all.body.map((o: { comment: string }) => o.comment).slice(0, 3), ['order 25', 'order 24', 'order 23'], 'newest first');
  t.equal(all.total, String(ORDERS));

  const first = await get(alice, `${url}?limit=10`);
  t.same([first.status, first.total, first.body.length], [200, String(ORDERS), 10], 'a page of 10 of 25');
  t.same(ids(first.body), ids(all.body).slice(0, 10));
  t.same(Object.keys(first.body[0]).sort(), ['auto', 'comment', 'customer_id', 'decided_at', 'decided_by', 'error', 'order_amount', 'order_by', 'order_id', 'order_time', 'sku_id', 'sku_name', 'status'], 'the shape of an order, seats_target left out');

  const deep = await get(alice, `${url}?offset=20&limit=10`);
  t.same([deep.total, ids(deep.body)], [String(ORDERS), ids(all.body).slice(20)], 'the last page holds the 5 oldest');
  const past = await get(alice, `${url}?offset=100&limit=10`);
  t.same([past.status, past.total, past.body], [200, String(ORDERS), []], 'a page past the end is empty, the total still there');

  const dflt = await get(alice, url);
  t.same([dflt.body.length, dflt.total], [ORDERS, String(ORDERS)], 'no limit: the first 100');

  // a date range pages the range and counts it: 2026-11-21 .. 2026-11-25 are orders 21..25
  const ranged = await get(alice, `${url}?start_date=2026-11-21&end_date=2026-11-25&offset=1&limit=2`);
  t.same([ranged.total, ranged.body.map((o: { comment: string }) => o.comment)], ['5', ['order 24', 'order 23']]);
});

t.test('orders: the default page is 100 of more', async (t) => {
  const { app, get, alice } = await setup(t);
  await app.pg.query(
    `INSERT INTO license_order (customer_id, sku_id, sku_name, order_amount, order_by, comment, order_time)
     SELECT $1, $2, 'x', 1, 'alice@acme.example', '', now() - (i || ' minutes')::interval FROM generate_series(1, 120) i`,
    [ACME, SKU],
  );
  const res = await get(alice, `/v1/licenses/orders/history/${ACME}`);
  t.same([res.body.length, res.total], [100, String(ORDERS + 120)]);
  t.equal((await get(alice, `/v1/licenses/orders/history/${ACME}?limit=500`)).body.length, ORDERS + 120);
});

t.test('the totals are kept, not recounted: inserts, deletes and a deleted license move them', async (t) => {
  const { app, get, alice } = await setup(t);
  const kept = async () => (await app.pg.query(`SELECT orders, license_changes, order_changes FROM license_list_count WHERE customer_id = $1`, [ACME])).rows[0];
  const counted = async () =>
    (
      await app.pg.query(
        `SELECT (SELECT count(*)::int FROM license_order WHERE customer_id = $1) AS orders,
                (SELECT count(*)::int FROM license_history WHERE customer_id = $1 AND kind = 'license') AS license_changes,
                (SELECT count(*)::int FROM license_history WHERE customer_id = $1 AND kind = 'order') AS order_changes`,
        [ACME],
      )
    ).rows[0];
  t.same(await kept(), await counted());
  await app.pg.query(`DELETE FROM license_order WHERE customer_id = $1 AND order_amount <= 3`, [ACME]);
  await app.pg.query(`DELETE FROM license_history WHERE customer_id = $1 AND kind = 'order' AND id IN (SELECT id FROM license_history WHERE kind = 'order' ORDER BY id LIMIT 2)`, [ACME]);
  t.same(await kept(), await counted(), 'after deletes');
  t.equal((await kept()).orders, ORDERS - 3);

  // the header reads the kept figure: set apart from the rows, the answer follows it (without a range)
  await app.pg.query(`UPDATE license_list_count SET orders = 999, license_changes = 7, order_changes = 40 WHERE customer_id = $1`, [ACME]);
  t.equal((await get(alice, `/v1/licenses/orders/history/${ACME}?limit=1`)).total, '999');
  t.equal((await get(alice, '/v1/licenses/history/acme.example/true?limit=1')).total, '47');
  t.equal((await get(alice, '/v1/licenses/history/acme.example/false?limit=1')).total, '7');
  t.equal((await get(alice, `/v1/licenses/orders/history/${ACME}?start_date=2020-01-01&limit=1`)).total, String(ORDERS - 3), 'a range counts its rows');

  await app.pg.query(`UPDATE license_list_count SET orders = $2 WHERE customer_id = $1`, [ACME, ORDERS - 3]);
  await app.pg.query(`DELETE FROM license WHERE customer_id = $1`, [ACME]);
  t.equal((await kept()).orders, 0, 'a deleted license takes its orders out of the count');
  t.same((await get(alice, `/v1/licenses/orders/history/${ACME}`)).total, '0');
});

t.test('history: pages newest first with and without orders, totals of each', async (t) => {
  const { get, alice } = await setup(t);
  const all = await get(alice, '/v1/licenses/history/acme.example/true?limit=500');
  t.equal(all.status, 200);
  t.equal(all.body.length, ORDERS + 1, 'the license created and every order placed');
  t.equal(all.total, String(ORDERS + 1));
  const dates = all.body.map((h: { date: string }) => h.date);
  t.same(dates, [...dates].sort().reverse(), 'newest first');
  t.match(all.body.at(-1), { kind: 'license', changed_by: 'alice@acme.example', updates: [{ field: 'created' }] });
  const page = await get(alice, '/v1/licenses/history/acme.example/true?offset=5&limit=5');
  t.same([page.total, ids(page.body)], [String(ORDERS + 1), ids(all.body).slice(5, 10)]);
  const last = await get(alice, `/v1/licenses/history/acme.example/true?offset=${ORDERS}&limit=5`);
  t.same(ids(last.body), ids(all.body).slice(ORDERS), 'the deep page holds the oldest');
  const licenseOnly = await get(alice, '/v1/licenses/history/acme.example/false?limit=2');
  t.same([licenseOnly.total, licenseOnly.body.map((h: { kind: string }) => h.kind)], ['1', ['license']]);
});

t.test('history: the JSON made in PostgreSQL is the list the rows gave, for ranges with and without orders', async (t) => {
  const { app, get, alice } = await setup(t);
  // the history's dates are when the rows were written (now): a range from 2020 holds them all, one in 2030 none
  const ranges: Record<string, string>[] = [{}, { start_date: '2020-01-01' }, { start_date: '2030-01-01' }];
  for (const range of ranges) {
    for (const withOrders of [true, false]) {
      const res = await get(alice, `/v1/licenses/history/acme.example/${withOrders}?${new URLSearchParams({ ...range, limit: '500' })}`);
      const rows = await listHistory(app.pg, ACME, range, withOrders);
      t.strictSame(res.body, rows, `${JSON.stringify(range)} ${withOrders}: ${rows.length} records`);
      t.equal(res.total, String(rows.length));
    }
  }
});

t.test('limits: bad offset and limit answer 400 with a detail', async (t) => {
  const { get, alice } = await setup(t);
  for (const base of [`/v1/licenses/orders/history/${ACME}`, '/v1/licenses/history/acme.example/true']) {
    for (const q of ['limit=0', 'limit=501', 'limit=abc', 'limit=1.5', 'offset=-1', 'offset=x']) {
      const res = await get(alice, `${base}?${q}`);
      t.equal(res.status, 400, `${base}?${q}`);
      t.type(res.body.detail, 'string', `${base}?${q}: a detail`);
    }
    t.equal((await get(alice, `${base}?limit=500&offset=0`)).status, 200, 'the maximum is allowed');
  }
});

t.test('tenancy, viewer and the flag stay as they were on the paged lists', async (t) => {
  const { app, get, alice, victor, bob } = await setup(t);
  const viewer = await get(victor, `/v1/licenses/orders/history/${ACME}?limit=5`);
  t.same([viewer.status, viewer.total, viewer.body.length], [200, String(ORDERS), 5], 'a viewer reads');
  t.same([(await get(victor, '/v1/licenses/history/acme.example/true?limit=5')).status], [200]);
  for (const [who, url] of [
    [alice, '/v1/licenses/orders/history/initech?limit=5'],
    [alice, '/v1/licenses/history/initech.example/true?offset=0&limit=5'],
    [bob, `/v1/licenses/orders/history/${ACME}?limit=500`],
    [bob, '/v1/licenses/history/acme.example/true?limit=5'],
  ] as const) {
    const res = await get(who, url);
    t.same([res.status, res.body, res.total], [404, { detail: 'Customer not found' }, undefined], `another customer’s list: ${url}`);
  }
  await app.pg.query(`UPDATE customer SET workspace_license = false WHERE customer_id = $1`, [ACME]);
  await app.access.publish();
  const off = await get(alice, `/v1/licenses/orders/history/${ACME}?limit=5`);
  t.same([off.status, off.body], [403, { detail: 'Workspace licenses are off for Acme Corp' }]);
});
