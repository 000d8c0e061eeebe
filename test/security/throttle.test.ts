/**
 * Throttling and lockout (against guessing): failed sign-ins lock the account and the client address, invitation links
 * and upload URLs are rate limited, every refusal is a 429 with Retry-After and `{detail}`, counts live in Redis (so
 * they hold across api processes), and X-Forwarded-For is believed only from a configured proxy.
 */
import t, { type Test } from 'tap';
import { buildApp } from '../../api/src/app.ts';
import { build, login, bearer, DEMO_PASSWORD } from '../helper.ts';

const attempt = (app: Awaited<ReturnType<typeof build>>, email: string, password: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email, password }, headers });

function isTooMany(t: Test, res: { statusCode: number; headers: Record<string, unknown>; json(): unknown }, name: string) {
  t.equal(res.statusCode, 429, name);
  const retry = Number(res.headers['retry-after']);
  t.ok(retry >= 1, `${name}: Retry-After ${res.headers['retry-after']}`);
  t.match(res.json(), { detail: /Too many attempts; try again in \d+ seconds/ }, name);
}

t.test('failed sign-ins lock the account, even for the right password, and not other accounts', async (t) => {
  const app = await build(t, { config: { LOGIN_MAX_FAILURES: 3, LOGIN_LOCKOUT_MINUTES: 5 } });
  for (let i = 0; i < 3; i += 1) t.equal((await attempt(app, 'alice@acme.example', 'wrong-password')).statusCode, 401, `failure ${i + 1}`);
  const locked = await attempt(app, 'Alice@Acme.example', DEMO_PASSWORD);
  isTooMany(t, locked, 'the right password while locked (any spelling of the address)');
  t.ok(Number(locked.headers['retry-after']) <= 300, 'no longer than LOGIN_LOCKOUT_MINUTES');
  t.equal((await attempt(app, 'admin@commandcenter.local', DEMO_PASSWORD)).statusCode, 200, 'another account signs in');

  // Successes are not failures: signing in often locks nobody out.
  for (let i = 0; i < 5; i += 1) t.equal((await attempt(app, 'victor@acme.example', DEMO_PASSWORD)).statusCode, 200);
});

t.test('failures from one address lock that address, whatever X-Forwarded-For says', async (t) => {
  const app = await build(t, { config: { LOGIN_MAX_FAILURES_PER_ADDRESS: 4 } });
  for (let i = 0; i < 4; i += 1) {
    const res = await attempt(app, `nobody${i}@nowhere.example`, 'wrong-password', { 'x-forwarded-for': `203.0.113.${i}` });
    t.equal(res.statusCode, 401, `guess ${i + 1} against another account`);
  }
  isTooMany(t, await attempt(app, 'alice@acme.example', DEMO_PASSWORD, { 'x-forwarded-for': '198.51.100.7' }), 'a forged X-Forwarded-For does not dodge it');
  const elsewhere = await app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email: 'alice@acme.example', password: DEMO_PASSWORD }, remoteAddress: '192.0.2.9' });
  t.equal(elsewhere.statusCode, 200, 'another client address still signs in');
});

t.test('behind a configured proxy the forwarded address is the client', async (t) => {
  const app = await build(t, { config: { LOGIN_MAX_FAILURES_PER_ADDRESS: 2, TRUST_PROXY: ['127.0.0.1'] } });
  for (let i = 0; i < 2; i += 1) await attempt(app, `x${i}@nowhere.example`, 'wrong-password', { 'x-forwarded-for': '203.0.113.5' });
  isTooMany(t, await attempt(app, 'alice@acme.example', DEMO_PASSWORD, { 'x-forwarded-for': '203.0.113.5' }), 'the guessing client is locked');
  t.equal((await attempt(app, 'alice@acme.example', DEMO_PASSWORD, { 'x-forwarded-for': '203.0.113.6' })).statusCode, 200, 'another client behind the same proxy is not');
});

t.test('the counts are kept in Redis: a lockout holds on every api process', async (t) => {
  const one = await build(t, { config: { LOGIN_MAX_FAILURES: 2 } });
  const two = await buildApp(one.env.config, { logger: false });
  t.teardown(() => two.close());
  await two.ready();
  await attempt(one, 'alice@acme.example', 'wrong-password');
  await attempt(one, 'alice@acme.example', 'wrong-password');
  isTooMany(t, await two.inject({ method: 'POST', url: '/v1/auth/login', payload: { email: 'alice@acme.example', password: DEMO_PASSWORD } }), 'the other process');
  const keys = await one.producers.redis.keys(`${one.env.config.QUEUE_PREFIX}:rate-limit:*`);
  t.ok(keys.length > 0, 'counted under the deployment’s prefix');
});

t.test('the lockout keys name what they count: the account and the address, nothing else', async (t) => {
  const app = await build(t);
  const prefix = app.env.config.QUEUE_PREFIX;
  await attempt(app, 'Alice@Acme.example', 'wrong-password');
  const keys = (await app.producers.redis.keys(`${prefix}:rate-limit:*`)).sort();
  t.same(keys, [`${prefix}:rate-limit:login-account:alice@acme.example`, `${prefix}:rate-limit:login-address:127.0.0.1`], 'one key each, readable');
  for (const key of keys) {
    t.equal(await app.producers.redis.get(key), '1', `${key} counts the failure`);
    const ttl = await app.producers.redis.pttl(key);
    t.ok(ttl > 0 && ttl <= app.env.config.LOGIN_LOCKOUT_MINUTES * 60_000, `${key} expires with the lockout window`);
  }
});

t.test('invitation links cannot be guessed at speed', async (t) => {
  const app = await build(t);
  let last = await app.inject({ method: 'GET', url: '/v1/invitations/guess-0' });
  for (let i = 1; i < 30; i += 1) last = await app.inject({ method: 'GET', url: `/v1/invitations/guess-${i}` });
  t.equal(last.statusCode, 404, '30 looks a minute are answered');
  isTooMany(t, await app.inject({ method: 'GET', url: '/v1/invitations/guess-30' }), 'the 31st look');
  const accept = (i: number) => app.inject({ method: 'POST', url: `/v1/invitations/guess-${i}`, payload: { password: 'whatever1' } });
  for (let i = 0; i < 10; i += 1) t.equal((await accept(i)).statusCode, 404, `password setting ${i + 1}`);
  isTooMany(t, await accept(10), 'the 11th password setting a minute (each runs argon2)');
});

t.test('upload URLs are limited per user', async (t) => {
  const app = await build(t);
  const alice = bearer(await login(app, 'alice@acme.example'));
  const admin = bearer(await login(app, 'admin@commandcenter.local'));
  const sign = (headers: Record<string, string>) => app.inject({ method: 'GET', url: '/v1/jira/signed_url?filename=a.png', headers });
  const answers = [];
  for (let i = 0; i < 60; i += 1) answers.push((await sign(alice)).statusCode);
  t.same([...new Set(answers)], [200], '60 a minute are answered');
  isTooMany(t, await sign(alice), 'the 61st');
  t.equal((await sign(admin)).statusCode, 200, 'another user is not limited by it');
});
