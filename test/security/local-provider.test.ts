/**
 * The built-in OpenID provider (OIDC=local, the default) authenticates like a real one: no session
 * without the account's password, email_verified from the account, codes only to the api's own
 * callback, and never in production.
 */
import t from 'tap';
import { createServer } from 'node:net';
import { ConfigError, loadConfig } from '@cc/shared/config.ts';
import { build, DEMO_PASSWORD } from '../helper.ts';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

t.test('local identity provider', async (t) => {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const app = await build(t, { config: { PUBLIC_URL: base, PORT: port } });
  await app.listen({ host: '127.0.0.1', port });
  const callback = `${base}/v1/auth/oidc/callback`;

  /** Starts a real flow; returns its flow cookie and the authorize parameters the api chose. */
  async function start() {
    const res = await fetch(`${base}/v1/auth/oidc/start`, { redirect: 'manual' });
    const authorize = new URL(res.headers.get('location')!);
    return { cookie: res.headers.get('set-cookie')!.split(';')[0], params: Object.fromEntries(authorize.searchParams) };
  }
  const authorize = (form: Record<string, string>) =>
    fetch(`${base}/oidc/authorize`, { method: 'POST', body: new URLSearchParams(form), redirect: 'manual' });
  async function finish(cookie: string, location: string) {
    const res = await fetch(location, { headers: { cookie }, redirect: 'manual' });
    const html = await res.text();
    // The session token rides only in the httpOnly cookie, never in the page a script could read.
    const token = /(?:^|, )token=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
    return { status: res.status, token, result: JSON.parse(html.match(/data-result='([^']*)'/)![1].replace(/&#39;/g, "'")) };
  }

  t.test('no session without a password: the admin e-mail alone gets no code', async (t) => {
    const { params } = await start();
    for (const password of [undefined, '']) {
      const res = await authorize({ ...params, email: 'admin@commandcenter.local', ...(password === undefined ? {} : { password }) });
      t.not(res.status, 302, `password ${JSON.stringify(password)}`);
      t.equal(res.headers.get('location'), null);
    }
  });

  t.test('a wrong password is refused', async (t) => {
    const { params } = await start();
    const res = await authorize({ ...params, email: 'admin@commandcenter.local', password: 'not-the-password' });
    t.equal(res.status, 401);
    t.equal(res.headers.get('location'), null);
    t.match(await res.text(), /Invalid username or password/);
  });

  t.test('the right password signs in', async (t) => {
    const { cookie, params } = await start();
    const res = await authorize({ ...params, email: 'admin@commandcenter.local', password: DEMO_PASSWORD });
    t.equal(res.status, 302);
    const { status, result, token } = await finish(cookie, res.headers.get('location')!);
    t.equal(status, 200);
    t.same(result, { type: 'cc-oidc', signedIn: true });
    t.type(token, 'string');
  });

  t.test('an unverified account is not marked verified, whatever the form says', async (t) => {
    const { cookie, params } = await start();
    const res = await authorize({ ...params, email: 'pending@acme.example', password: DEMO_PASSWORD, email_verified: 'true' });
    t.equal(res.status, 302);
    const { status, result } = await finish(cookie, res.headers.get('location')!);
    t.equal(status, 403);
    t.same(result, { type: 'cc-oidc', error: 'Email is not verified' });
    const { rows } = await app.env.pool.query('SELECT email_verified FROM app_user WHERE id = $1', ['pending@acme.example']);
    t.equal(rows[0].email_verified, false);
  });

  t.test('a redirect_uri to another site is refused without redirecting', async (t) => {
    const { params } = await start();
    t.equal(params.redirect_uri, callback);
    for (const evil of ['https://attacker.example/cb', `${callback}/../../evil`, `${callback}?x=1`, `${base}/elsewhere`]) {
      const page = await fetch(`${base}/oidc/authorize?${new URLSearchParams({ ...params, redirect_uri: evil })}`, { redirect: 'manual' });
      t.equal(page.status, 400, `GET authorize ${evil}`);
      const posted = await authorize({ ...params, redirect_uri: evil, email: 'alice@acme.example', password: DEMO_PASSWORD });
      t.equal(posted.status, 400, `POST authorize ${evil}`);
      t.equal(posted.headers.get('location'), null);
    }
  });

  t.test('the token endpoint refuses a code redeemed for another redirect_uri', async (t) => {
    const { params } = await start();
    const res = await authorize({ ...params, email: 'alice@acme.example', password: DEMO_PASSWORD });
    const code = new URL(res.headers.get('location')!).searchParams.get('code')!;
    const token = await fetch(`${base}/oidc/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'authorization_code', code, redirect_uri: 'https://attacker.example/cb',
        client_id: app.config.OIDC_CLIENT_ID, client_secret: app.config.OIDC_CLIENT_SECRET,
      }),
    });
    t.equal(token.status, 400);
    t.same(await token.json(), { error: 'invalid_grant' });
  });

  t.test('hostile form input gets no 500', async (t) => {
    const { params } = await start();
    for (const email of ['admin@commandcenter.local\u0000', '\ud800@x.example', 'x'.repeat(5000)]) {
      const res = await authorize({ ...params, email, password: DEMO_PASSWORD });
      t.ok(res.status >= 400 && res.status < 500, `${JSON.stringify(email.slice(0, 30))} → ${res.status}`);
    }
  });
});

t.test('the local provider cannot run in production', async (t) => {
  t.throws(
    () => loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'p'.repeat(40), OIDC: 'local' }),
    new ConfigError('OIDC=local is the development identity provider and cannot run in production; set OIDC=real with OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET'),
  );
});
