/** The domain's Workspace subscriptions, Create License's SKU choice: tenancy, the flag, viewers read, licensed marks. */
import t from 'tap';
import { build, login, bearer } from '../helper.ts';

const URL = (domain: string) => `/v1/licenses/subscriptions/${domain}`;

t.test('subscriptions of a domain: what Create License offers', async (t) => {
  const app = await build(t);
  await app.pg.query(`UPDATE customer SET domain_name = 'initech.example', workspace_license = true WHERE customer_id = 'initech'`);
  await app.access.publish();
  const [alice, victor, admin, bob] = await Promise.all(
    ['alice@acme.example', 'victor@acme.example', 'admin@commandcenter.local', 'bob@initech.example'].map((u) => login(app, u)),
  );
  const get = (token: string, url: string) => app.inject({ method: 'GET', url, headers: bearer(token) });

  const first = await get(alice, URL('acme.example'));
  t.equal(first.statusCode, 200);
  t.same(first.json(), [
    { sku_id: '1010020028', sku_name: 'Google Workspace Business Standard', plan: 'ANNUAL_MONTHLY_PAY', volume_total: 50, volume_available: 8, licensed: false },
    { sku_id: '1010020027', sku_name: 'Google Workspace Business Starter', plan: 'FLEXIBLE', volume_total: 20, volume_available: 8, licensed: false },
  ]);

  const created = await app.inject({ method: 'PUT', url: '/v1/licenses/acme.example', headers: bearer(alice), payload: { sku_id: '1010020028', threshold: 1, new_order: 1 } });
  t.equal(created.statusCode, 201);
  const viewer = await get(victor, URL('acme.example'));
  t.equal(viewer.statusCode, 200, 'a viewer reads, as the license list');
  t.same(
    viewer.json().map((s: { sku_id: string; licensed: boolean }) => [s.sku_id, s.licensed]),
    [['1010020028', true], ['1010020027', false]],
    'a subscription with a license is marked',
  );

  t.same((await get(alice, URL('initech.example'))).json(), { detail: 'Customer not found' }, 'another tenant’s domain is refused');
  t.equal((await get(alice, URL('initech.example'))).statusCode, 404);
  t.same((await get(bob, URL('acme.example'))).json(), { detail: 'Customer not found' });
  t.same((await get(alice, URL('nowhere.example'))).json(), { detail: 'Customer not found' });
  t.equal((await get(admin, URL('initech.example'))).json().length, 2, 'an admin reaches any domain');
  t.equal((await app.inject({ method: 'GET', url: URL('acme.example') })).statusCode, 401, 'signed in only');

  await app.pg.query(`UPDATE customer SET domain_name = 'globex.example' WHERE customer_id = 'globex'`);
  await app.access.publish();
  t.same((await get(admin, URL('globex.example'))).json(), { detail: 'Workspace licenses are off for Globex Corporation' }, 'the flag gates it');

  const route = app.registeredRoutes.find((r) => r.method === 'GET' && r.url === '/v1/licenses/subscriptions/:domain');
  t.match(route, { permission: 'authenticated', tenant: { domain: 'domain' }, feature: 'workspace_license' }, 'declared in the route policy');
});
