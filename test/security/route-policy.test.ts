/**
 * Routes Fastify adds by itself (HEAD for every GET) carry the same permission as their GET, and a route
 * without a declared permission stops the server at start instead of answering anyone. Every answer
 * carries the headers that keep other sites from framing or sniffing it.
 */
import t from 'tap';
import Fastify from 'fastify';
import routeRegistry from '../../api/src/plugins/app/route-registry.ts';
import { build, login, bearer } from '../helper.ts';

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
