import t from 'tap';
import { build, login, bearer } from '../helper.ts';

t.test('health, docs and metrics', async (t) => {
  const app = await build(t, { seed: false });
  t.same((await app.inject('/healthz')).json(), { status: 'ok' });
  t.same((await app.inject('/readyz')).json(), { status: 'ok', postgres: 'ok', redis: 'ok' });
  const docs = await app.inject('/docs/json');
  t.equal(docs.statusCode, 200);
  t.ok(docs.json().paths['/v1/auth/login'], 'OpenAPI lists the login route');
  const metrics = await app.inject('/metrics');
  t.match(metrics.body, /cc_queue_jobs\{queue="notify",state="waiting"\} 0/);
  t.match(metrics.body, /cc_http_request_duration_seconds_bucket\{.*route="\/readyz"/);
  const missing = await app.inject('/v1/nothing-here');
  t.equal(missing.statusCode, 404);
  t.same(missing.json(), { detail: 'Route GET /v1/nothing-here not found' });
});

t.test('readyz answers 503 when Redis is unreachable', async (t) => {
  const app = await build(t, { seed: false, config: { REDIS_URL: 'redis://127.0.0.1:1' } });
  const res = await app.inject('/readyz');
  t.equal(res.statusCode, 503);
  t.equal(res.json().postgres, 'ok');
  t.not(res.json().redis, 'ok');
});

t.test('customers and claims', async (t) => {
  const app = await build(t);
  const admin = await login(app, 'admin@commandcenter.local');
  const alice = await login(app, 'alice@acme.example');
  const victor = await login(app, 'victor@acme.example');

  const all = await app.inject({ url: '/v1/customers/', headers: bearer(admin) });
  t.same(all.json().map((c: { customer_id: string }) => c.customer_id), ['acme-corp', 'globex', 'initech']);
  const mine = await app.inject({ url: '/v1/customers/', headers: bearer(alice) });
  t.same(mine.json().map((c: { customer_id: string }) => c.customer_id), ['acme-corp', 'globex']);

  const acme = (await app.inject({ url: '/v1/customers/acme-corp/', headers: bearer(alice) })).json();
  t.equal(acme.billing_account_id, '01A2B3-C4D5E6-F7A8B9,01FFEE-DDCCBB-AA9988');
  t.same(acme.billing_dashboard_tier_discount, [{ threshold_spend: 10000, percentage: 2 }, { threshold_spend: 50000, percentage: 4 }]);
  t.ok(acme.users.includes('victor@acme.example'));

  const asViewer = (await app.inject({ url: '/v1/customers/acme-corp/', headers: bearer(victor) })).json();
  t.same(asViewer.users, [], 'a viewer does not see who else has access');
  t.same(asViewer.filters, [{ user: 'victor@acme.example', label_key: 'team', label_value: 'analytics' }]);
  t.equal((await app.inject({ url: '/v1/customers/', headers: bearer(victor) })).statusCode, 403);

  const other = await app.inject({ url: '/v1/customers/initech/', headers: bearer(alice) });
  t.equal(other.statusCode, 404);
  t.same(other.json(), { detail: 'Customer not found' });
  const none = await app.inject({ url: '/v1/customers/no-such-customer/', headers: bearer(admin) });
  t.same(none.json(), { detail: 'Customer not found' });

  // A user whose claims are not initialised yet: only set_claims helps.
  await app.env.pool.query("UPDATE app_user SET claims = NULL WHERE id = 'alice@acme.example'");
  await app.access.publish(); // a write outside the api: the access epoch moves before the next request (NOTIFY may lag)
  const waiting = await app.inject({ url: '/v1/customers/', headers: bearer(alice) });
  t.same(waiting.json(), { detail: 'Your user account is being initialised' });
  const set = await app.inject({ method: 'POST', url: '/v1/customers/set_claims/', headers: bearer(alice) });
  t.equal(set.json().claims.role, 'customer');
  t.equal((await app.inject({ url: '/v1/customers/', headers: bearer(alice) })).statusCode, 200);

  // A role change takes effect on the next request once update_claims has run.
  await app.env.pool.query("UPDATE app_user SET role = 'customerViewer' WHERE id = 'alice@acme.example'");
  await app.access.publish(); // a write outside the api: the access epoch moves before the next request (NOTIFY may lag)
  const upd = await app.inject({ method: 'POST', url: '/v1/customers/update_claims/', headers: bearer(admin), payload: { user_id: 'Alice@acme.example' } });
  t.equal(upd.statusCode, 200);
  t.equal(upd.json().claims.role, 'customerViewer');
  t.equal((await app.inject({ url: '/v1/customers/', headers: bearer(alice) })).statusCode, 403);
  const unknown = await app.inject({ method: 'POST', url: '/v1/customers/update_claims/', headers: bearer(admin), payload: { user_id: 'ghost@x.example' } });
  t.same(unknown.json(), { detail: 'User not found' });
  const byCustomer = await app.inject({ method: 'POST', url: '/v1/customers/update_claims/', headers: bearer(victor), payload: { user_id: 'victor@acme.example' } });
  t.equal(byCustomer.statusCode, 403);
});

t.test('screen crashes are logged with the caller', async (t) => {
  const app = await build(t);
  const alice = await login(app, 'alice@acme.example');
  const res = await app.inject({
    method: 'POST',
    url: '/v1/logs',
    headers: bearer(alice),
    payload: { resource: '/supportrequest', type: 'TypeError', data: { message: 'x is undefined', componentStack: 'at Tickets' } },
  });
  t.equal(res.statusCode, 201);
  const { rows } = await app.env.pool.query('SELECT user_email, resource, type, data FROM error_log');
  t.same(rows, [{ user_email: 'alice@acme.example', resource: '/supportrequest', type: 'TypeError', data: { message: 'x is undefined', componentStack: 'at Tickets' } }]);
  const bad = await app.inject({ method: 'POST', url: '/v1/logs', headers: bearer(alice), payload: { type: 'x' } });
  t.same(bad.json(), { detail: "body must have required property 'resource'" });
});
