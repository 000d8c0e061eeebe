/**
 * Sessions that end: logout ends the whole sign-in (every token refreshed from it), a user can sign out
 * everywhere, an admin can end a user's sessions, a session has an absolute lifetime, and the refusal is immediate
 * in every api process. Cookie-authenticated writes must come from our own pages.
 */
import t from 'tap';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../api/src/app.ts';
import { build, login, bearer, DEMO_PASSWORD } from '../helper.ts';

type App = FastifyInstance;
const me = (app: App, token: string) => app.inject({ method: 'GET', url: '/v1/auth/me', headers: bearer(token) });
const refresh = (app: App, token: string) => app.inject({ method: 'POST', url: '/v1/auth/refresh', headers: bearer(token) });
const sidOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sid as string;

t.test('logout ends the whole session, not only the token presented', async (t) => {
  const app = await build(t);
  const first = await login(app, 'alice@acme.example');
  const refreshed = (await refresh(app, first)).json().token as string;
  const twice = (await refresh(app, refreshed)).json().token as string;
  t.ok(sidOf(first), 'the token names its session');
  t.equal(sidOf(refreshed), sidOf(first), 'refresh keeps the sid');
  t.equal(sidOf(twice), sidOf(first));
  const other = await login(app, 'alice@acme.example');
  t.not(sidOf(other), sidOf(first), 'another sign-in is another session');

  t.equal((await app.inject({ method: 'POST', url: '/v1/auth/logout', headers: bearer(twice) })).statusCode, 204);
  for (const [name, token] of [['the first token', first], ['a refreshed one', refreshed], ['the one logged out with', twice]] as const) {
    const res = await me(app, token);
    t.same([res.statusCode, res.json()], [401, { detail: 'Token revoked' }], name);
    t.equal((await refresh(app, token)).statusCode, 401, `${name} cannot be refreshed`);
  }
  t.equal((await me(app, other)).statusCode, 200, 'the other sign-in goes on');
  const { rows } = await app.env.pool.query('SELECT ended_by FROM session WHERE id = $1', [sidOf(first)]);
  t.same(rows, [{ ended_by: 'logout' }]);
});

t.test('sign out everywhere ends every session of the caller, and only theirs', async (t) => {
  const app = await build(t);
  const laptop = await login(app, 'alice@acme.example');
  const phone = await login(app, 'alice@acme.example');
  const bob = await login(app, 'admin@commandcenter.local');
  const res = await app.inject({ method: 'DELETE', url: '/v1/auth/sessions', headers: bearer(phone) });
  t.same([res.statusCode, res.json()], [200, { ended: 2 }]);
  t.equal((await me(app, laptop)).statusCode, 401, 'the other device is signed out at its next request');
  t.equal((await me(app, phone)).statusCode, 401);
  t.equal((await me(app, bob)).statusCode, 200, 'another user is untouched');
  t.equal((await me(app, await login(app, 'alice@acme.example'))).statusCode, 200, 'signing in again works');
});

t.test('an admin ends a user’s sessions; nobody else may', async (t) => {
  const app = await build(t);
  const admin = bearer(await login(app, 'admin@commandcenter.local'));
  const alice = [await login(app, 'alice@acme.example'), await login(app, 'alice@acme.example')];
  const url = '/v1/users/alice@acme.example/sessions/';

  const anonymous = await app.inject({ method: 'DELETE', url });
  t.equal(anonymous.statusCode, 401);
  const self = await app.inject({ method: 'DELETE', url: '/v1/users/admin@commandcenter.local/sessions/', headers: bearer(alice[0]!) });
  t.equal(self.statusCode, 403, 'a customer user cannot end an admin’s sessions');
  t.equal((await me(app, alice[0]!)).statusCode, 200);

  const res = await app.inject({ method: 'DELETE', url, headers: admin });
  t.same([res.statusCode, res.json()], [200, { email: 'alice@acme.example', ended: 2 }]);
  for (const token of alice) t.equal((await me(app, token)).statusCode, 401, 'refused from the next request on');
  const again = await app.inject({ method: 'DELETE', url, headers: admin });
  t.same(again.json(), { email: 'alice@acme.example', ended: 0 });
  const unknown = await app.inject({ method: 'DELETE', url: '/v1/users/nobody@nowhere.example/sessions/', headers: admin });
  t.same([unknown.statusCode, unknown.json()], [404, { detail: 'User not found' }]);
  const { rows } = await app.env.pool.query('SELECT DISTINCT ended_by FROM session WHERE user_id = $1', ['alice@acme.example']);
  t.same(rows, [{ ended_by: 'admin:admin@commandcenter.local' }]);
});

t.test('a session has an absolute lifetime that refreshing never extends', async (t) => {
  const app = await build(t, { config: { SESSION_MAX_HOURS: 2, TOKEN_TTL_SECONDS: 3600 } });
  const res = await app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email: 'alice@acme.example', password: DEMO_PASSWORD } });
  const token = res.json().token as string;
  const { rows } = await app.env.pool.query('SELECT extract(epoch FROM expires_at - created_at)::int AS seconds FROM session WHERE id = $1', [sidOf(token)]);
  t.equal(rows[0].seconds, 2 * 3600, 'SESSION_MAX_HOURS');

  // 30 seconds of the session left: the refreshed token ends with it, not an hour later.
  await app.env.pool.query("UPDATE session SET created_at = now() - interval '3 hours', expires_at = now() + interval '30 seconds' WHERE id = $1", [sidOf(token)]);
  const late = await refresh(app, token);
  t.equal(late.statusCode, 200);
  t.ok(late.json().expires_in <= 30, `expires_in ${late.json().expires_in} ≤ 30`);
  const exp = JSON.parse(Buffer.from((late.json().token as string).split('.')[1]!, 'base64url').toString()).exp as number;
  t.ok(exp <= Math.floor(Date.now() / 1000) + 31, 'the token’s exp is the session’s end');

  await app.env.pool.query("UPDATE session SET expires_at = now() - interval '1 second' WHERE id = $1", [sidOf(token)]);
  const over = await refresh(app, token);
  t.same([over.statusCode, over.json()], [401, { detail: 'Session expired' }]);
});

t.test('tokens naming no session are refused', async (t) => {
  const app = await build(t);
  const noSid = app.jwt.sign({ sub: 'admin@commandcenter.local', claims: null }, { expiresIn: '10m', jti: 'handmade' });
  t.same([(await me(app, noSid)).statusCode, (await me(app, noSid)).json()], [401, { detail: 'Invalid token' }]);
});

t.test('an end is seen at once by every api process, without a database read per request', async (t) => {
  const one = await build(t);
  const two = await buildApp(one.env.config, { logger: false });
  t.teardown(() => two.close());
  await two.ready();
  const token = await login(one, 'alice@acme.example');
  t.equal((await me(two, token)).statusCode, 200, 'a token from one process works on the other');
  t.equal((await one.inject({ method: 'POST', url: '/v1/auth/logout', headers: bearer(token) })).statusCode, 204);
  t.equal((await me(two, token)).statusCode, 401, 'the other process refuses it on the very next request');
  // The per-request check reads the Redis marker, not the session row: the row alone decides only at refresh.
  const key = `${one.env.config.QUEUE_PREFIX}:session-ended:${sidOf(token)}`;
  const ttl = await one.producers.redis.pttl(key);
  t.ok(ttl > 11 * 3600_000, `the marker lives as long as the session could (${ttl} ms)`);
});

t.test('cookie-authenticated writes must come from our own pages', async (t) => {
  const app = await build(t);
  const res = await app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email: 'alice@acme.example', password: DEMO_PASSWORD } });
  const cookie = /token=([^;]+)/.exec(String(res.headers['set-cookie']))![1]!;
  const logout = (headers: Record<string, string>) => app.inject({ method: 'POST', url: '/v1/auth/logout', cookies: { token: cookie }, headers });

  t.equal((await app.inject({ method: 'GET', url: '/v1/auth/me', cookies: { token: cookie } })).statusCode, 200, 'reads need no proof');
  for (const [name, headers] of [
    ['another site (Sec-Fetch-Site)', { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' }],
    ['a sibling subdomain (Sec-Fetch-Site)', { 'sec-fetch-site': 'same-site' }],
    ['another site (Origin only)', { origin: 'https://evil.example' }],
    ['an opaque origin', { origin: 'null' }],
    ['no Origin and no Sec-Fetch-Site', {}],
  ] as const) {
    const r = await logout(headers);
    t.equal(r.statusCode, 403, name);
    t.match(r.json(), { detail: /Cross-site request refused/ }, name);
  }
  t.equal((await app.inject({ method: 'GET', url: '/v1/auth/me', cookies: { token: cookie } })).statusCode, 200, 'the session survived the forged logouts');
  t.equal((await logout({ 'sec-fetch-site': 'same-origin', origin: new URL(app.env.config.PUBLIC_URL).origin })).statusCode, 204, 'our own page may');

  const token = await login(app, 'alice@acme.example');
  const api = await app.inject({ method: 'POST', url: '/v1/auth/refresh', headers: bearer(token) });
  t.equal(api.statusCode, 200, 'an API client with a Bearer header needs no Origin');
});

t.test('answers carrying tokens are never cached', async (t) => {
  const app = await build(t);
  const res = await app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email: 'alice@acme.example', password: DEMO_PASSWORD } });
  t.equal(res.headers['cache-control'], 'no-store', 'login');
  t.match(String(res.headers['set-cookie']), /token=.*HttpOnly.*SameSite=Strict/i);
  t.notMatch(String(res.headers['set-cookie']), /Secure/i, 'not Secure over http');
  t.equal((await refresh(app, res.json().token)).headers['cache-control'], 'no-store', 'refresh');

  const https = await build(t, { config: { PUBLIC_URL: 'https://portal.example' } });
  const secure = await https.inject({ method: 'POST', url: '/v1/auth/login', payload: { email: 'alice@acme.example', password: DEMO_PASSWORD } });
  t.match(String(secure.headers['set-cookie']), /; Secure/i, 'Secure when served over https');
});
