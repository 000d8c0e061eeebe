/**
 * Routes Fastify adds by itself (HEAD for every GET) carry the same permission as their GET, and a route
 * without a declared permission stops the server at start instead of answering anyone. Every answer
 * carries the headers that keep other sites from framing or sniffing it.
 */
import t from 'tap';
import Fastify from 'fastify';
import routeRegistry from '../../api/src/plugins/app/route-registry.ts';
import { buildApp } from '../../api/src/app.ts';
import { build, login, bearer, testEnv } from '../helper.ts';

t.test('HEAD on operator routes is refused like their GET', async (t) => {
  const app = await build(t);
  const alice = bearer(await login(app, 'alice@acme.example'));
  const admin = bearer(await login(app, 'admin@commandcenter.local'));
  for (const url of ['/ops/queues/api/queues', '/ops/queues/', '/ops/queues/api/redis/stats']) {
    t.equal((await app.inject({ method: 'HEAD', url })).statusCode, 401, `anonymous HEAD ${url}`);
    t.equal((await app.inject({ method: 'HEAD', url, headers: alice })).statusCode, 403, `customer HEAD ${url}`);
  }
  t.equal((await app.inject({ method: 'HEAD', url: '/ops/queues/api/queues', headers: admin })).statusCode, 200, 'the admin still may');
  t.equal((await app.inject({ method: 'HEAD', url: '/v1/users/' })).statusCode, 401, 'anonymous HEAD on an api list');
  t.equal((await app.inject({ method: 'HEAD', url: '/v1/users/', headers: alice })).statusCode, 403, 'customer HEAD on an admin list');

  t.test('every answer carries the safety headers', async (t) => {
    for (const url of ['/healthz', '/v1/auth/me', '/docs/json', '/nope']) {
      const res = await app.inject({ method: 'GET', url });
      t.equal(res.headers['x-content-type-options'], 'nosniff', url);
      // The whole policy is checked in headers.test.ts; here: no other site may frame any answer.
      t.match(res.headers['content-security-policy'], /(^|;\s*)frame-ancestors 'none'(;|$)/, url);
      t.equal(res.headers['x-frame-options'], 'DENY', url);
      t.equal(res.headers['referrer-policy'], 'same-origin', url);
    }
  });
});

t.test('a route without a declared permission stops the server at start', async (t) => {
  for (const method of ['GET', 'HEAD', 'OPTIONS'] as const) {
    const app = Fastify();
    await app.register(routeRegistry);
    void app.register(async (scope) => scope.route({ method, url: '/undeclared', handler: async () => 'open' }));
    await t.rejects(async () => {
      await app.ready();
    }, /does not declare config.permission/, method);
  }
});

t.test('a route declaring a feature flag is refused while the customer has it off', async (t) => {
  const env = await testEnv(t);
  const app = await buildApp(env.config, { logger: false });
  t.teardown(() => app.close());
  // A route of no area: the flag it declares alone makes the guard check it.
  app.get('/v1/probe/:customer', { config: { permission: 'authenticated', tenant: { params: 'customer' }, feature: 'documentation' } }, async () => 'open');
  app.get('/v1/probe-support/:customer', { config: { permission: 'authenticated', tenant: { params: 'customer' }, feature: 'support_request' } }, async () => 'open');
  await app.ready();
  const alice = bearer(await login(app, 'alice@acme.example'));
  const admin = bearer(await login(app, 'admin@commandcenter.local'));
  const { rows } = await env.pool.query<{ customer_id: string; customer_name: string }>(
    `SELECT customer_id, customer_name FROM customer c WHERE EXISTS (SELECT 1 FROM customer_member m WHERE m.customer_id = c.customer_id AND m.list = 'users' AND m.user_id = 'alice@acme.example') ORDER BY customer_id LIMIT 1`,
  );
  const { customer_id: id, customer_name: name } = rows[0]!;
  await env.pool.query(`UPDATE customer SET documentation = true, support_request = true WHERE customer_id = $1`, [id]);
  await app.access.publish();
  t.equal((await app.inject({ method: 'GET', url: `/v1/probe/${id}`, headers: alice })).body, 'open', 'flag on: the handler runs');
  await env.pool.query(`UPDATE customer SET documentation = false, support_request = false WHERE customer_id = $1`, [id]);
  await app.access.publish();
  const off = await app.inject({ method: 'GET', url: `/v1/probe/${id}`, headers: alice });
  t.same([off.statusCode, off.json()], [403, { detail: `Playbook for ${name} is disabled` }], 'flag off: refused with the area\'s text');
  const adminOff = await app.inject({ method: 'GET', url: `/v1/probe/${id}`, headers: admin });
  t.equal(adminOff.statusCode, 403, 'an admin too, outside Support');
  const support = await app.inject({ method: 'GET', url: `/v1/probe-support/${id}`, headers: alice });
  t.same([support.statusCode, support.json()], [403, { detail: 'Support requests are disabled for this customer' }]);
  t.equal((await app.inject({ method: 'GET', url: `/v1/probe-support/${id}`, headers: admin })).body, 'open', 'Support: admins act for any customer');
});

t.test('a route of a gated area that does not declare its feature flag stops the server at start', async (t) => {
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['/v1/asset-inventory/:customer/new', { tenant: { params: 'customer' } }, /lies in the area of the inventory flag but does not declare config.feature/],
    ['/v1/jira/msp_tickets/:customer/new', { tenant: { params: 'customer' }, feature: 'inventory' }, /area of the support_request flag but declares config.feature 'inventory'/],
    ['/v1/anywhere', { tenant: 'none', feature: 'documentation' }, /declares config.feature 'documentation' but names no customer/],
  ];
  for (const [url, config, message] of cases) {
    const app = Fastify();
    await app.register(routeRegistry);
    void app.register(async (scope) => scope.route({ method: 'GET', url, config: { permission: 'authenticated', ...config }, handler: async () => 'open' }));
    await t.rejects(async () => {
      await app.ready();
    }, message, url);
  }
  const app = Fastify();
  await app.register(routeRegistry);
  void app.register(async (scope) => scope.route({ method: 'GET', url: '/v1/monitoring/:id/x', config: { permission: 'authenticated', tenant: { params: 'id' }, feature: 'system_health_dashboard' }, handler: async () => 'open' }));
  await app.ready();
  t.equal(app.registeredRoutes[0]?.feature, 'system_health_dashboard', 'a declared flag of its own area boots');
});
