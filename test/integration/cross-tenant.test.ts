/**
 * Enumerates every registered route and proves the guard holds for each, so routes added later are
 * covered without a new test:
 * - a customer of A naming customer B (in path, query or body) gets 403 or 404;
 * - naming their own customer does not get the tenant refusal (the guard is not a blanket deny);
 * - a customerViewer gets 403 on every route that changes something;
 * - admin-only routes refuse customers.
 */
import t from 'tap';
import type { RegisteredRoute } from '../../api/src/plugins/app/route-registry.ts';
import { isWritePermission } from '@cc/shared/permissions.ts';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../api/src/app.ts';
import { build, login, bearer, testEnv } from '../helper.ts';

const OWN = 'acme-corp';
const OTHER = 'initech';

/** Values for path parameters that are not the customer: ids of B's resources where a later issue adds them. */
const PROBE_VALUES: Record<string, string> = {
  // customer lists: a real list name, so only the guard can refuse it
  list: 'users',
  // anomalies: a well-formed request, so only the guard can refuse it
  billing_account_id: '01A2B3-C4D5E6-F7A8B9',
  date: '2026-01-15',
  minimum_anomaly_threshold: '20',
  minimum_value_toggled_anomaly: '10',
  // viewers: a viewer of acme-corp
  user: 'victor@acme.example',
  // tickets: a well-formed ticket id / Jira key and attachment id (the seed has no tickets, so the resolver answers
  // 404; tickets-tenant.test.ts probes real tickets of another customer by every key)
  key: '00000000-0000-4000-8000-0000000b0b00',
  attachment_id: '00000000-0000-4000-8000-0000000a0a00',
  role: 'customer',
  state: 'Open',
  // licenses: a license and an order that do not exist, so only the guard can refuse
  sku_id: '1010020028',
  order_id: '00000000-0000-4000-8000-00000000c0de',
  approve: 'true',
  with_orders: 'true',
};

/** Workspace domains of the customers, for routes that name a customer by its domain (licenses). */
const DOMAINS: Record<string, string> = { [OWN]: 'acme.example', [OTHER]: 'initech.example' };

function requestFor(route: RegisteredRoute, customer: string) {
  const tenant = route.tenant;
  let url = route.url.replace(/:(\w+)/g, (_m, name: string) => {
    if (typeof tenant === 'object' && 'params' in tenant && tenant.params === name) return customer;
    if (typeof tenant === 'object' && 'domain' in tenant && tenant.domain === name) return DOMAINS[customer];
    return PROBE_VALUES[name] ?? 'probe';
  });
  url = url.replace(/\*$/, 'probe');
  const query: Record<string, string> = {};
  let payload: Record<string, unknown> | undefined;
  if (typeof tenant === 'object' && 'query' in tenant) query[tenant.query] = customer;
  if (typeof tenant === 'object' && 'body' in tenant) payload = { [tenant.body]: customer };
  if (route.method !== 'GET' && route.method !== 'DELETE' && !payload) payload = {};
  return { method: route.method as 'GET', url, query, payload };
}

const guarded = (r: RegisteredRoute) => r.permission !== 'public';

t.test('every route is guarded for tenant and permission', async (t) => {
  const app = await build(t);
  // Initech gets a Workspace domain, so a route naming it by domain finds a real customer that is not the caller's.
  await app.pg.query(`UPDATE customer SET domain_name = 'initech.example', workspace_license = true WHERE customer_id = $1`, [OTHER]);
  await app.access.publish();
  const routes = app.registeredRoutes;
  t.ok(routes.length > 10, `enumerated ${routes.length} routes`);
  const alice = await login(app, 'alice@acme.example');
  const victor = await login(app, 'victor@acme.example');
  const admin = await login(app, 'admin@commandcenter.local');

  const tenantRoutes = routes.filter((r) => guarded(r) && r.tenant !== 'none');
  t.ok(tenantRoutes.length > 0, 'at least one route names a customer');

  t.test('a customer of A cannot reach customer B', async (t) => {
    for (const route of tenantRoutes) {
      const res = await app.inject({ ...requestFor(route, OTHER), headers: bearer(alice) });
      t.ok([403, 404].includes(res.statusCode), `${route.method} ${route.url} → ${res.statusCode} ${res.body.slice(0, 120)}`);
      t.not(res.statusCode, 200);
    }
  });

  t.test('a viewer of A cannot reach customer B', async (t) => {
    for (const route of tenantRoutes) {
      const res = await app.inject({ ...requestFor(route, OTHER), headers: bearer(victor) });
      t.ok([403, 404].includes(res.statusCode), `${route.method} ${route.url} → ${res.statusCode}`);
    }
  });

  t.test('naming their own customer passes the tenant guard', async (t) => {
    for (const route of tenantRoutes.filter((r) => typeof r.tenant === 'object' && !('resolve' in r.tenant))) {
      const res = await app.inject({ ...requestFor(route, OWN), headers: bearer(alice) });
      const refused = res.statusCode === 404 && res.json().detail === 'Customer not found';
      t.notOk(refused, `${route.method} ${route.url} → ${res.statusCode}`);
    }
  });

  t.test('an admin passes the tenant guard for any customer', async (t) => {
    for (const route of tenantRoutes.filter((r) => typeof r.tenant === 'object' && !('resolve' in r.tenant))) {
      const res = await app.inject({ ...requestFor(route, OTHER), headers: bearer(admin) });
      const refused = res.statusCode === 404 && res.json().detail === 'Customer not found';
      t.notOk(refused, `${route.method} ${route.url} → ${res.statusCode}`);
    }
  });

  t.test('a viewer cannot change anything', async (t) => {
    const writes = routes.filter((r) => guarded(r) && r.permission !== 'authenticated' && (r.permission === 'admin' || isWritePermission(r.permission)));
    t.ok(writes.length > 0, `${writes.length} write routes`);
    for (const route of writes) {
      const res = await app.inject({ ...requestFor(route, OWN), headers: bearer(victor) });
      t.equal(res.statusCode, 403, `${route.method} ${route.url}`);
    }
  });

  t.test('admin-only routes refuse customers', async (t) => {
    for (const route of routes.filter((r) => r.permission === 'admin')) {
      const res = await app.inject({ ...requestFor(route, OWN), headers: bearer(alice) });
      t.equal(res.statusCode, 403, `${route.method} ${route.url}`);
    }
  });

  t.test('guarded routes refuse anonymous callers', async (t) => {
    for (const route of routes.filter(guarded)) {
      const res = await app.inject(requestFor(route, OWN));
      t.equal(res.statusCode, 401, `${route.method} ${route.url}`);
    }
  });
});

t.test('a route without a declared policy stops the server from starting', async (t) => {
  const env = await testEnv(t, { seed: false });
  const cases: [string, (app: FastifyInstance) => void, RegExp][] = [
    ['no permission', (app) => app.get('/v1/undeclared', async () => ({})), /does not declare config.permission/],
    ['no tenant', (app) => app.get('/v1/no-tenant', { config: { permission: 'billing_read' } }, async () => ({})), /does not declare config.tenant/],
    [
      'customer in body with tenant none',
      (app) =>
        app.post(
          '/v1/sneaky',
          {
            config: { permission: 'billing_read', tenant: 'none' },
            schema: { body: { type: 'object', properties: { customer: { type: 'string' } } } },
          },
          async () => ({}),
        ),
      /names a customer in body.customer but declares tenant 'none'/,
    ],
  ];
  for (const [name, addRoute, message] of cases) {
    const app = await buildApp(env.config, { logger: false });
    await t.rejects(
      (async () => {
        await app.register(async (scope) => addRoute(scope));
        await app.ready();
      })(),
      message,
      name,
    );
    await app.close();
  }
});
