/** The license routes (spec 001 §7) with the local Workspace tenant: every rule and message, tenancy, decisions. */
import t, { type Test } from 'tap';
import { build, login, bearer } from '../helper.ts';

const ACME = 'acme-corp';
const SKU = '1010020028';

async function setup(t: Test) {
  const app = await build(t);
  await app.pg.query(`UPDATE customer SET domain_name = 'initech.example', workspace_license = true WHERE customer_id = 'initech'`);
  await app.access.publish();
  const [alice, victor, admin, bob] = await Promise.all(
    ['alice@acme.example', 'victor@acme.example', 'admin@commandcenter.local', 'bob@initech.example'].map((u) => login(app, u)),
  );
  const call = (token: string, method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) =>
    app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
  return { app, alice, victor, admin, bob, call };
}

const create = (over: object = {}) => ({ sku_id: SKU, threshold: 5, auto_order: false, new_order: 1, ...over });

t.test('create license: rules, messages, figures from Workspace', async (t) => {
  const { call, alice, victor } = await setup(t);
  t.same((await call(alice, 'GET', '/v1/licenses/acme.example')).json(), []);
  const cases: [object, string][] = [
    [{ sku_id: 'abc' }, 'sku_id: Invalid input'],
    [{ sku_id: 0 }, 'sku_id: Must be above 0'],
    [{ threshold: 0 }, 'threshold: Must be above 0'],
    [{ threshold: '1.5' }, 'threshold: Invalid input'],
    [{ new_order: 0 }, 'new_order: Must be above 0'],
    [{ new_order: undefined }, 'new_order: Invalid input'],
    [{ sku_id: 999 }, 'sku_id: acme.example has no Workspace subscription for SKU 999'],
    [{ threshold: 51 }, 'threshold: number cant be over 50'],
    [{ new_order: 51 }, 'new_order: number cant be over 50'],
  ];
  for (const [over, detail] of cases) {
    const res = await call(alice, 'PUT', '/v1/licenses/acme.example', create(over));
    t.equal(res.statusCode, 400, detail);
    t.same(res.json(), { detail });
  }
  t.equal((await call(victor, 'PUT', '/v1/licenses/acme.example', create())).statusCode, 403, 'a viewer only reads');
  const res = await call(alice, 'PUT', '/v1/licenses/ACME.example', create({ sku_id: String(SKU), threshold: '5', new_order: '2' }));
  t.equal(res.statusCode, 201);
  t.match(res.json(), { sku_id: SKU, sku_name: 'Google Workspace Business Standard', volume_total: 50, volume_available: 8, threshold: 5, new_order: 2, auto_order: false });
  t.same((await call(alice, 'PUT', '/v1/licenses/acme.example', create())).json(), { detail: `sku_id: a license for SKU ${SKU} already exists` });
  t.equal((await call(victor, 'GET', '/v1/licenses/acme.example')).json().length, 1, 'a viewer reads');
});

t.test('update license and place an order', async (t) => {
  const { call, alice, victor } = await setup(t);
  await call(alice, 'PUT', '/v1/licenses/acme.example', create());
  const update = (body: object) => call(alice, 'POST', `/v1/licenses/acme.example/${SKU}/`, body);
  const bad: [object, string][] = [
    [{ auto_order: true, threshold: 'x', new_order: 1 }, 'threshold: must be a number'],
    [{ auto_order: true, threshold: 51, new_order: 1 }, 'threshold: number cant be over 50'],
    [{ auto_order: true, threshold: 3, new_order: 0 }, 'new_order: number must be greater than 0'],
    [{ auto_order: true, threshold: 3, new_order: 'two' }, 'new_order: must be a number'],
    [{ auto_order: true, threshold: 3, new_order: 51 }, 'new_order: number cant be over 50'],
  ];
  for (const [body, detail] of bad) t.same((await update(body)).json(), { detail }, detail);
  t.match((await update({ auto_order: false, threshold: 0, new_order: 7 })).json(), { threshold: 0, auto_order: false, new_order: 1 }, 'threshold 0 is allowed; new_order is 1 while auto order is off');
  t.match((await update({ auto_order: true, threshold: 4, new_order: 6 })).json(), { threshold: 4, auto_order: true, new_order: 6 });
  t.same((await call(alice, 'POST', '/v1/licenses/acme.example/42/', { auto_order: true, threshold: 1, new_order: 1 })).json(), { detail: 'License not found' });
  t.equal((await call(victor, 'POST', `/v1/licenses/acme.example/${SKU}/`, { auto_order: true, threshold: 1, new_order: 1 })).statusCode, 403);

  const order = (body: object) => call(alice, 'PUT', '/v1/licenses/orders/acme.example', { sku_id: SKU, customer_id: ACME, comment: 'new hires', ...body });
  for (const [amount, detail] of [['abc', 'order_amount: must be a number'], [0, 'order_amount: number must be greater than 0'], [51, 'order_amount: number cant be over 50']] as const) {
    t.same((await order({ order_amount: amount })).json(), { detail }, detail);
  }
  t.same((await order({ order_amount: 3, customer_id: 'initech' })).json(), { detail: 'Customer not found' }, 'the body names another tenant');
  t.same((await order({ order_amount: 3, sku_id: '42' })).json(), { detail: 'License not found' });
  const placed = await order({ order_amount: '3', order_by: 'someone@else.example' });
  t.equal(placed.statusCode, 201);
  t.match(placed.json(), { status: 'Pending', order_amount: 3, order_by: 'alice@acme.example', comment: 'new hires', customer_id: ACME, auto: false });
});

t.test('admins approve or reject; approval adds the seats once', async (t) => {
  const { app, call, alice, admin } = await setup(t);
  await call(alice, 'PUT', '/v1/licenses/acme.example', create());
  const place = async (n: number) => (await call(alice, 'PUT', '/v1/licenses/orders/acme.example', { sku_id: SKU, customer_id: ACME, order_amount: n, comment: '' })).json().order_id as string;
  const first = await place(4);
  const decide = (token: string, id: string, approve: boolean) => call(token, 'POST', `/v1/licenses/orders/acme.example/${id}/${approve}`);

  t.same((await decide(alice, first, true)).json(), { detail: 'Admin only' });
  const [a, b] = await Promise.all([decide(admin, first, true), decide(admin, first, true)]);
  t.same([a.statusCode, b.statusCode], [200, 200], 'two admins at once');
  t.match(a.json(), { status: 'Fulfilled', decided_by: 'admin@commandcenter.local' });
  t.match((await decide(admin, first, true)).json(), { status: 'Fulfilled' }, 'a retry answers the same');
  const seats = await app.pg.query(`SELECT seats FROM local_workspace_subscription WHERE domain = 'acme.example' AND sku_id = $1`, [SKU]);
  t.equal(seats.rows[0].seats, 54, 'the seats were added once');
  t.match((await call(alice, 'GET', '/v1/licenses/acme.example')).json()[0], { volume_total: 54, volume_available: 12 });
  t.same((await decide(admin, first, false)).json(), { detail: 'The order is Fulfilled' });

  const second = await place(2);
  t.match((await decide(admin, second, false)).json(), { status: 'Rejected' });
  t.same((await decide(admin, second, true)).json(), { detail: 'The order is Rejected' });
  t.same((await decide(admin, '00000000-0000-4000-8000-000000000000', true)).json(), { detail: 'Order not found' });

  const orders = (await call(alice, 'GET', `/v1/licenses/orders/history/${ACME}`)).json();
  t.same(orders.map((o: { status: string }) => o.status), ['Rejected', 'Fulfilled']);
  t.same((await call(alice, 'GET', `/v1/licenses/orders/history/${ACME}?start_date=2020-01-01&end_date=2020-12-31`)).json(), []);
  t.same((await call(alice, 'GET', `/v1/licenses/orders/history/${ACME}?start_date=2030-01-02&end_date=2030-01-01`)).json(), { detail: 'start_date must not be after end_date' });

  const history = (await call(alice, 'GET', '/v1/licenses/history/acme.example/true')).json();
  const lines = history.flatMap((h: { changed_by: string; updates: { field: string; from: unknown; to: unknown }[] }) => h.updates.map((u) => `${h.changed_by} ${u.field} ${String(u.from)}→${String(u.to)}`));
  t.ok(lines.includes('admin@commandcenter.local order Pending→Approved'));
  t.ok(lines.includes('admin@commandcenter.local order Approved→Fulfilled'));
  t.ok(lines.includes('admin@commandcenter.local volume_total 50→54'));
  t.ok(lines.includes('alice@acme.example threshold null→5'), 'creation lists the first values');
  const withoutOrders = (await call(alice, 'GET', '/v1/licenses/history/acme.example/false')).json();
  t.ok(withoutOrders.every((h: { kind: string }) => h.kind === 'license'));
});

t.test('tenancy: a domain is refused like any other tenant; the flag gates the routes', async (t) => {
  const { app, call, alice, bob, admin } = await setup(t);
  const urls: ['GET' | 'PUT' | 'POST', string, object?][] = [
    ['GET', '/v1/licenses/initech.example'],
    ['PUT', '/v1/licenses/initech.example', create()],
    ['POST', `/v1/licenses/initech.example/${SKU}/`, { auto_order: false, threshold: 1 }],
    ['PUT', '/v1/licenses/orders/initech.example', { sku_id: SKU, customer_id: 'initech', order_amount: 1 }],
    ['GET', '/v1/licenses/orders/history/initech'],
    ['GET', '/v1/licenses/history/initech.example/true'],
    ['GET', '/v1/licenses/nowhere.example'],
  ];
  for (const [method, url, body] of urls) t.same((await call(alice, method, url, body)).json(), { detail: 'Customer not found' }, `${method} ${url}`);
  t.same((await call(bob, 'GET', '/v1/licenses/acme.example')).json(), { detail: 'Customer not found' });
  t.same((await call(admin, 'GET', '/v1/licenses/initech.example')).json(), [], 'an admin reaches any domain');
  await app.pg.query(`UPDATE customer SET domain_name = 'globex.example' WHERE customer_id = 'globex'`);
  // an outside write reaches the api's access cache by NOTIFY, milliseconds later: published now, as the api's own writes are
  await app.access.publish();
  t.same((await call(alice, 'GET', '/v1/licenses/globex.example')).json(), { detail: 'Workspace licenses are off for Globex Corporation' });
  t.same((await call(alice, 'GET', '/v1/licenses/orders/history/globex')).json(), { detail: 'Workspace licenses are off for Globex Corporation' });
});
