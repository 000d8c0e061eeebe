/**
 * A user changes their own password: the current one is required and checked through the sign-in lockout, the new
 * one follows the password rule, every other session of the user ends at once (this one goes on), and a notice is
 * e-mailed through the outbox and the notify queue.
 */
import t from 'tap';
import { build, login, bearer, DEMO_PASSWORD } from '../helper.ts';

type App = Awaited<ReturnType<typeof build>>;
const change = (app: App, token: string, body: Record<string, unknown>) =>
  app.inject({ method: 'POST', url: '/v1/auth/password', headers: bearer(token), payload: body });
const me = (app: App, token: string) => app.inject({ method: 'GET', url: '/v1/auth/me', headers: bearer(token) });
const signIn = (app: App, email: string, password: string) => app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email, password } });

t.test('the right current password: new password set, other sessions ended, a notice queued', async (t) => {
  const app = await build(t);
  const laptop = await login(app, 'alice@acme.example');
  const phone = await login(app, 'alice@acme.example');
  const here = await login(app, 'alice@acme.example');
  const bob = await login(app, 'admin@commandcenter.local');

  const res = await change(app, here, { current_password: DEMO_PASSWORD, new_password: 'a-new-secret' });
  t.same([res.statusCode, res.json()], [200, { ended: 2 }]);
  t.equal((await me(app, here)).statusCode, 200, 'the session it was made in goes on');
  for (const [name, token] of [['laptop', laptop], ['phone', phone]] as const) {
    t.same([(await me(app, token)).statusCode, (await me(app, token)).json()], [401, { detail: 'Token revoked' }], `${name} signed out`);
  }
  t.equal((await me(app, bob)).statusCode, 200, 'another user is untouched');
  const { rows: ended } = await app.env.pool.query("SELECT count(*)::int AS n FROM session WHERE user_id = 'alice@acme.example' AND ended_by = 'password'");
  t.equal(ended[0].n, 2, 'recorded as ended by the password change');

  t.equal((await signIn(app, 'alice@acme.example', DEMO_PASSWORD)).statusCode, 401, 'the old password no longer signs in');
  t.equal((await signIn(app, 'alice@acme.example', 'a-new-secret')).statusCode, 200, 'the new one does');

  const { rows } = await app.env.pool.query("SELECT job_name, data FROM outbox WHERE queue = 'notify'");
  t.equal(rows.length, 1, 'one notice');
  t.equal(rows[0].job_name, 'notify.send');
  t.same(rows[0].data.to, ['alice@acme.example']);
  t.equal(rows[0].data.subject, 'Your CommandCenter password was changed');
  t.match(rows[0].data.text, /The password of your CommandCenter account alice@acme\.example was changed on \d{4}-\d\d-\d\d \d\d:\d\d UTC\.\n2 other sign-ins were ended\./);
  t.match(rows[0].data.key, /^password-changed-[0-9a-f]{32}$/);
  t.notMatch(JSON.stringify(rows[0].data), /a-new-secret/, 'the password is in no e-mail');
});

t.test('a wrong current password changes nothing and counts towards the lockout', async (t) => {
  const app = await build(t, { config: { LOGIN_MAX_FAILURES: 3 } });
  const token = await login(app, 'alice@acme.example');
  const other = await login(app, 'alice@acme.example');
  for (let i = 0; i < 3; i += 1) {
    const res = await change(app, token, { current_password: 'not-my-password', new_password: 'a-new-secret' });
    t.same([res.statusCode, res.json()], [400, { detail: 'The current password is not correct' }], `wrong ${i + 1} (400: the session is not over)`);
  }
  const locked = await change(app, token, { current_password: DEMO_PASSWORD, new_password: 'a-new-secret' });
  t.equal(locked.statusCode, 429, 'locked: the right password is refused too');
  t.ok(Number(locked.headers['retry-after']) >= 1);
  t.equal((await signIn(app, 'alice@acme.example', DEMO_PASSWORD)).statusCode, 429, 'and the sign-in route with it');
  t.equal((await me(app, token)).statusCode, 200, 'the session still works');
  t.equal((await me(app, other)).statusCode, 200, 'no session was ended');
  const { rows } = await app.env.pool.query("SELECT count(*)::int AS n FROM outbox WHERE queue = 'notify'");
  t.equal(rows[0].n, 0, 'no notice');
});

t.test('the new password follows the password rule; input errors are 400 with detail', async (t) => {
  const app = await build(t);
  const token = await login(app, 'alice@acme.example');
  const cases: [Record<string, unknown>, string][] = [
    [{ current_password: DEMO_PASSWORD, new_password: 'short' }, 'Must have at least 6 characters'],
    [{ current_password: DEMO_PASSWORD, new_password: '' }, 'new_password: This field is required'],
    [{ current_password: '', new_password: 'a-new-secret' }, 'current_password: This field is required'],
    [{ current_password: DEMO_PASSWORD, new_password: 'x'.repeat(1025) }, 'Must have at most 1024 characters'],
    [{ new_password: 'a-new-secret' }, "body must have required property 'current_password'"],
  ];
  for (const [body, detail] of cases) {
    const res = await change(app, token, body);
    t.same([res.statusCode, res.json()], [400, { detail }], detail);
  }
  t.equal((await signIn(app, 'alice@acme.example', DEMO_PASSWORD)).statusCode, 200, 'the password is unchanged');
  t.equal((await app.inject({ method: 'POST', url: '/v1/auth/password', payload: { current_password: DEMO_PASSWORD, new_password: 'a-new-secret' } })).statusCode, 401, 'signed-in users only');
});
