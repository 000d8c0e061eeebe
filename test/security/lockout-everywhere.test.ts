/**
 * Every way to present a password goes through the one sign-in lockout (per account and per client address): the
 * sign-in route, the built-in identity provider's form (OIDC=local, the default) and the password change. Failures
 * counted on one count on the others, and a locked account gets no session through any of them, right password or not.
 */
import t, { type Test } from 'tap';
import { build, DEMO_PASSWORD } from '../helper.ts';

type App = Awaited<ReturnType<typeof build>>;

const login = (app: App, email: string, password: string, remoteAddress = '127.0.0.1') =>
  app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email, password }, remoteAddress });

/** The local provider's sign-in form, as the browser posts it. */
const authorize = (app: App, email: string, password: string, remoteAddress = '127.0.0.1') =>
  app.inject({
    method: 'POST',
    url: '/oidc/authorize',
    remoteAddress,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      client_id: app.env.config.OIDC_CLIENT_ID,
      redirect_uri: `${app.env.config.PUBLIC_URL}/v1/auth/oidc/callback`,
      state: 's',
      email,
      password,
    }).toString(),
  });

function isLocked(t: Test, res: Awaited<ReturnType<typeof login>>, name: string) {
  t.equal(res.statusCode, 429, name);
  t.ok(Number(res.headers['retry-after']) >= 1, `${name}: Retry-After ${res.headers['retry-after']}`);
  t.notOk(res.headers.location, `${name}: no code, no redirect`);
}

t.test('failed /v1/auth/login locks the identity provider form too, right password included', async (t) => {
  const app = await build(t, { config: { LOGIN_MAX_FAILURES: 10 } });
  for (let i = 0; i < 10; i += 1) t.equal((await login(app, 'victor@acme.example', 'wrong-password')).statusCode, 401, `login failure ${i + 1}`);
  isLocked(t, await login(app, 'victor@acme.example', DEMO_PASSWORD), 'the sign-in route');
  const wrong = await authorize(app, 'victor@acme.example', 'wrong-password');
  isLocked(t, wrong, 'the form, wrong password');
  t.match(wrong.body, /Too many attempts; try again in \d+ seconds/, 'the form says why');
  t.match(wrong.headers['content-type'], /text\/html/, 'as its own page');
  isLocked(t, await authorize(app, 'Victor@Acme.example', DEMO_PASSWORD), 'the form, right password, any spelling');
  t.equal((await authorize(app, 'alice@acme.example', DEMO_PASSWORD)).statusCode, 302, 'another account still gets its code');
});

t.test('failures on the identity provider form lock /v1/auth/login', async (t) => {
  const app = await build(t, { config: { LOGIN_MAX_FAILURES: 3 } });
  for (let i = 0; i < 3; i += 1) t.equal((await authorize(app, 'victor@acme.example', 'wrong-password')).statusCode, 401, `form failure ${i + 1}`);
  isLocked(t, await authorize(app, 'victor@acme.example', DEMO_PASSWORD), 'the form');
  isLocked(t, await login(app, 'victor@acme.example', DEMO_PASSWORD), 'the sign-in route');
});

t.test('the identity provider form counts per client address as well', async (t) => {
  const app = await build(t, { config: { LOGIN_MAX_FAILURES_PER_ADDRESS: 4 } });
  for (let i = 0; i < 4; i += 1) t.equal((await authorize(app, `nobody${i}@nowhere.example`, 'wrong-password', '203.0.113.9')).statusCode, 401);
  isLocked(t, await authorize(app, 'alice@acme.example', DEMO_PASSWORD, '203.0.113.9'), 'the guessing address, on the form');
  isLocked(t, await login(app, 'alice@acme.example', DEMO_PASSWORD, '203.0.113.9'), 'the guessing address, on the sign-in route');
  t.equal((await authorize(app, 'alice@acme.example', DEMO_PASSWORD, '192.0.2.1')).statusCode, 302, 'another address signs in');
});
