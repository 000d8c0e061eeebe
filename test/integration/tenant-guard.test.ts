/**
 * The tenant guard refuses what it cannot resolve: an empty customer id in a path answers 400 with a detail (never a
 * database error, never the handler running without a customer); a body whose customer is not a plain string is left
 * to validation (a 5,000-deep array must not crash the guard) and the validated value is what gets checked. A handler
 * reading `request.customer` on a route whose rule admits no customer is a programming error, not a silent null.
 */
import t from 'tap';
import { buildApp } from '../../api/src/app.ts';
import { build, login, bearer, testEnv } from '../helper.ts';

/** JSON text nesting arrays `depth` deep (built as text: JSON.stringify itself overflows the stack on it). */
const deep = (depth: number) => `${'['.repeat(depth)}"acme-corp"${']'.repeat(depth)}`;

t.test('the tenant guard refuses what it cannot resolve', async (t) => {
  const app = await build(t);
  const admin = await login(app, 'admin@commandcenter.local');
  const alice = await login(app, 'alice@acme.example');

  t.test('an empty customer id in the path is a 400 with a detail, for admins too', async (t) => {
    const cases: [string, 'GET' | 'POST' | 'PUT', string, unknown, string][] = [
      [admin, 'PUT', '/v1/customers//lists/notify/', { users: ['alice@acme.example'] }, 'params/id must name a customer'],
      [admin, 'POST', '/v1/alerts//', { group_by: 'service', quota: 10 }, 'params/customer must name a customer'],
      [admin, 'GET', '/v1/alerts//', undefined, 'params/customer must name a customer'],
      [alice, 'GET', '/v1/alerts//notices/', undefined, 'params/customer must name a customer'],
      [alice, 'GET', '/v1/viewers//', undefined, 'params/customer must name a customer'],
      [alice, 'POST', '/v2/billing/aggregated/by_service/chart/', {}, 'params/customer must name a customer'],
    ];
    for (const [token, method, url, payload, detail] of cases) {
      const res = await app.inject({ method, url, payload: payload as object, headers: bearer(token) });
      t.equal(res.statusCode, 400, `${method} ${url} → ${res.statusCode} ${res.body}`);
      t.same(res.json(), { detail }, `${method} ${url}`);
    }
    const notify = await app.env.pool.query(`SELECT 1 FROM customer_member WHERE customer_id = '' `);
    t.equal(notify.rowCount, 0, 'nothing was written for an empty customer');
  });

  t.test('an empty customer in the body is a 400 with a detail', async (t) => {
    const res = await app.inject({
      method: 'POST',
      url: '/v1/jira/msp_tickets',
      payload: { customer: '', summary: 's', description: 'd', priority: 'P3' },
      headers: bearer(alice),
    });
    t.equal(res.statusCode, 400, res.body);
    t.same(res.json(), { detail: 'body/customer must name a customer' });
  });

  t.test('a 5,000-deep customer in the body is refused before the guard reads it (the input policy\'s depth limit), not a crash', async (t) => {
    const payload = `{"customer":${deep(5000)},"summary":"s","description":"d","priority":"P3"}`;
    const res = await app.inject({ method: 'POST', url: '/v1/jira/msp_tickets', payload, headers: { ...bearer(alice), 'content-type': 'application/json' } });
    t.equal(res.statusCode, 400, res.body.slice(0, 200));
    t.same(res.json(), { detail: 'body must not nest deeper than 64 levels' });
  });

  t.test('a customer that validation coerces is checked as coerced', async (t) => {
    const payload = { customer: ['initech'], summary: 's', description: 'd', priority: 'P3' };
    const res = await app.inject({ method: 'POST', url: '/v1/jira/msp_tickets', payload, headers: bearer(alice) });
    t.equal(res.statusCode, 404, res.body);
    t.same(res.json(), { detail: 'Customer not found' });
    const { rowCount } = await app.env.pool.query(`SELECT 1 FROM ticket WHERE customer_id = 'initech'`);
    t.equal(rowCount, 0, 'no ticket for the other customer');
  });
});

t.test('request.customer on a route that admits no customer fails loudly', async (t) => {
  const env = await testEnv(t);
  const app = await buildApp(env.config, { logger: false });
  t.teardown(() => app.close());
  await app.register(async (scope) => {
    scope.get('/v1/reads-customer-without-rule', { config: { permission: 'authenticated', tenant: 'none' } }, async (req) => {
      try {
        return { id: req.customer.customer_id };
      } catch (err) {
        return { error: (err as Error).message };
      }
    });
  });
  await app.ready();
  const alice = await login(app, 'alice@acme.example');
  const res = await app.inject({ method: 'GET', url: '/v1/reads-customer-without-rule', headers: bearer(alice) });
  t.same(res.json(), { error: 'GET /v1/reads-customer-without-rule reads request.customer but its tenant rule admitted no customer' });
});
