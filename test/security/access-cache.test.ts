/**
 * The hot path: the api keeps users and tenant admissions in process so an authenticated request needs no database round
 * trip, yet every change to who may do what is refused AT ONCE, also by another api process on the same Redis and
 * database. Each test first warms the other process (`b`) with an answer that succeeds, changes access through the
 * first (`a`), and asks `b` again straight away: no waiting, no retry.
 */
import t, { type Test } from 'tap';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../api/src/app.ts';
import { bearer, login, testEnv, type TestEnv } from '../helper.ts';

const CHART = '/v2/billing/aggregated/by_service/chart/acme-corp';
const LABEL_CHART = '/v2/billing/project/labels/chart/acme-corp';
const ACCOUNT = '01A2B3-C4D5E6-F7A8B9';

async function twoApis(t: Test): Promise<{ a: FastifyInstance; b: FastifyInstance; env: TestEnv }> {
  const env = await testEnv(t);
  const a = await buildApp(env.config, { logger: false });
  const b = await buildApp(env.config, { logger: false });
  await Promise.all([a.ready(), b.ready()]);
  t.teardown(() => Promise.all([a.close(), b.close()]));
  return { a, b, env };
}

const chart = (app: FastifyInstance, token: string, account = ACCOUNT) =>
  app.inject({ method: 'POST', url: CHART, query: { billing_account_id: account, provider: 'gcp', period: '7days' }, payload: { services: [] }, headers: bearer(token) });
const labelChart = (app: FastifyInstance, token: string) =>
  app.inject({
    method: 'POST',
    url: LABEL_CHART,
    query: { billing_account_id: ACCOUNT, period: '7days' },
    payload: { project_label: 'team' },
    headers: bearer(token),
  });
const me = (app: FastifyInstance, token: string) => app.inject({ method: 'GET', url: '/v1/auth/me', headers: bearer(token) });

/** Asks twice, so the second answer comes from the in-process memory the change must invalidate. */
async function warm(t: Test, ask: () => Promise<{ statusCode: number; body: string }>): Promise<void> {
  for (let i = 0; i < 2; i++) {
    const res = await ask();
    t.equal(res.statusCode, 200, `allowed before the change: ${res.body.slice(0, 80)}`);
  }
}

t.test('logout, sign out everywhere and an admin’s end are refused at once by the other process', async (t) => {
  const { a, b } = await twoApis(t);
  const admin = await login(a, 'admin@commandcenter.local');

  const one = await login(a, 'alice@acme.example');
  await warm(t, () => chart(b, one));
  t.equal((await a.inject({ method: 'POST', url: '/v1/auth/logout', headers: bearer(one) })).statusCode, 204);
  t.same([(await chart(b, one)).statusCode, (await chart(b, one)).json()], [401, { detail: 'Token revoked' }], 'logout');

  const laptop = await login(a, 'alice@acme.example');
  const phone = await login(a, 'alice@acme.example');
  await warm(t, () => chart(b, laptop));
  t.equal((await a.inject({ method: 'DELETE', url: '/v1/auth/sessions', headers: bearer(phone) })).statusCode, 200);
  t.equal((await chart(b, laptop)).statusCode, 401, 'sign out everywhere');

  const again = await login(a, 'alice@acme.example');
  await warm(t, () => chart(b, again));
  t.equal((await a.inject({ method: 'DELETE', url: '/v1/users/alice@acme.example/sessions/', headers: bearer(admin) })).statusCode, 200);
  t.equal((await chart(b, again)).statusCode, 401, 'an admin ended the sessions');
});

t.test('removal from a customer is refused at once by the other process', async (t) => {
  const { a, b } = await twoApis(t);
  const admin = await login(a, 'admin@commandcenter.local');
  const alice = await login(a, 'alice@acme.example');
  await warm(t, () => chart(b, alice));
  const res = await a.inject({ method: 'PUT', url: '/v1/users/alice@acme.example/', headers: bearer(admin), payload: { role: 'customer', email: 'alice@acme.example', customers: ['globex'] } });
  t.equal(res.statusCode, 200, res.body);
  const after = await chart(b, alice);
  t.same([after.statusCode, after.json()], [404, { detail: 'Customer not found' }], 'no longer a member of acme-corp');
  t.equal((await chart(a, alice)).statusCode, 404, 'nor in the process that made the change');
});

t.test('a role change is refused at once by the other process', async (t) => {
  const { a, b } = await twoApis(t);
  const admin = await login(a, 'admin@commandcenter.local');
  const alice = await login(a, 'alice@acme.example');
  await warm(t, () => chart(b, alice));
  const res = await a.inject({
    method: 'PUT',
    url: '/v1/users/alice@acme.example/',
    headers: bearer(admin),
    payload: { role: 'customerViewer', email: 'alice@acme.example', customers: ['acme-corp', 'globex'] },
  });
  t.equal(res.statusCode, 200, res.body);
  const after = await chart(b, alice);
  t.same([after.statusCode, after.json()], [403, { detail: 'A customer viewer sees only the project-label view' }], 'now a viewer');
});

t.test('a deleted user is refused at once by the other process', async (t) => {
  const { a, b } = await twoApis(t);
  const admin = await login(a, 'admin@commandcenter.local');
  const alice = await login(a, 'alice@acme.example');
  await warm(t, () => me(b, alice));
  const res = await a.inject({ method: 'DELETE', url: '/v1/users/', headers: bearer(admin), payload: { users: ['alice@acme.example'] } });
  t.same([res.statusCode, res.json()], [200, { deleted: 1 }]);
  const after = await me(b, alice);
  t.same([after.statusCode, after.json()], [401, { detail: 'User no longer exists' }]);
});

t.test('a viewer whose filter is removed is refused at once by the other process', async (t) => {
  const { a, b } = await twoApis(t);
  const admin = await login(a, 'admin@commandcenter.local');
  const victor = await login(a, 'victor@acme.example');
  await warm(t, () => labelChart(b, victor));
  const res = await a.inject({ method: 'DELETE', url: '/v1/viewers/acme-corp/filters/victor@acme.example/', headers: bearer(admin) });
  t.equal(res.statusCode, 200, res.body);
  const after = await labelChart(b, victor);
  t.same([after.statusCode, after.json()], [403, { detail: 'Please contact your system administrator' }]);
});

t.test('a customer’s billing account taken away is refused at once by the other process', async (t) => {
  const { a, b } = await twoApis(t);
  const admin = await login(a, 'admin@commandcenter.local');
  const alice = await login(a, 'alice@acme.example');
  await warm(t, () => chart(b, alice, '01FFEE-DDCCBB-AA9988'));
  const res = await a.inject({ method: 'PUT', url: '/v1/customers/acme-corp/', headers: bearer(admin), payload: { billing_account_id: ACCOUNT } });
  t.equal(res.statusCode, 200, res.body);
  const after = await chart(b, alice, '01FFEE-DDCCBB-AA9988');
  t.same([after.statusCode, after.json()], [404, { detail: 'Billing account not found' }]);
});

t.test('a change written outside the api (a worker, psql) reaches every api process through PostgreSQL', async (t) => {
  const { a, b, env } = await twoApis(t);
  const alice = await login(a, 'alice@acme.example');
  await warm(t, () => chart(a, alice));
  await warm(t, () => chart(b, alice));
  await env.pool.query(`DELETE FROM customer_member WHERE customer_id = 'acme-corp' AND user_id = 'alice@acme.example'`);
  // Announced at commit (NOTIFY): delivered within milliseconds, not before the next request as the api's own writes.
  for (const app of [a, b]) {
    let status = 0;
    for (let i = 0; i < 100 && status !== 404; i++) {
      status = (await chart(app, alice)).statusCode;
      if (status !== 404) await new Promise((r) => setTimeout(r, 20));
    }
    t.equal(status, 404, 'refused once the announcement arrived');
  }
});

/** Records what the api's pool is asked (the pg driver's own methods, observed, not replaced in behaviour). */
function observePool(t: Test, app: FastifyInstance): string[] {
  const seen: string[] = [];
  const pool = app.pg as unknown as { query: (...args: unknown[]) => unknown; connect: (...args: unknown[]) => unknown };
  const [query, connect] = [pool.query, pool.connect];
  pool.query = function (this: unknown, ...args: unknown[]) {
    seen.push(String(typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string }).text).slice(0, 60));
    return query.apply(this, args);
  };
  pool.connect = function (this: unknown, ...args: unknown[]) {
    seen.push('connect');
    return connect.apply(this, args);
  };
  t.teardown(() => Object.assign(pool, { query, connect }));
  return seen;
}

/** Records the commands sent on a Redis connection (ioredis' own sendCommand, observed, not replaced in behaviour). */
function observeRedis(t: Test, redis: unknown): string[] {
  const seen: string[] = [];
  const conn = redis as { sendCommand: (cmd: { name: string }, ...rest: unknown[]) => unknown };
  const send = conn.sendCommand;
  conn.sendCommand = function (this: unknown, cmd: { name: string }, ...rest: unknown[]) {
    seen.push(cmd.name);
    return send.apply(this, [cmd, ...rest]);
  };
  t.teardown(() => Object.assign(conn, { sendCommand: send }));
  return seen;
}

t.test('the hot path reads no user, session or customer row once warm, and makes one Redis round trip', async (t) => {
  const { a } = await twoApis(t);
  const alice = await login(a, 'alice@acme.example');
  await warm(t, () => chart(a, alice));
  const seen = observePool(t, a);
  const hot = observeRedis(t, a.access.redis);
  const producer = observeRedis(t, a.producers.redis);
  for (let i = 0; i < 20; i++) t.equal((await chart(a, alice)).headers['x-cache'], 'hit');
  t.same(seen, [], 'no statement reached PostgreSQL for 20 cached charts');
  // The access epoch and the session marker are read in the chart lookup's own script (accessInLookup).
  t.same(hot, Array(20).fill('evalsha'), 'one Redis command per cached chart');
  t.same(producer, [], 'nothing on the producer connection');
});

t.test('a viewer’s cached chart reads no viewer filter once warm', async (t) => {
  const { a } = await twoApis(t);
  const victor = await login(a, 'victor@acme.example');
  await warm(t, () => labelChart(a, victor));
  const seen = observePool(t, a);
  for (let i = 0; i < 5; i++) t.equal((await labelChart(a, victor)).headers['x-cache'], 'hit');
  t.same(seen, [], 'no statement reached PostgreSQL for 5 cached charts of a viewer');
});
