/**
 * Social sign-in end to end over HTTP: the api (openid-client) against the in-process OpenID provider,
 * through discovery, authorize, token (code + PKCE) and ID token validation.
 */
import t from 'tap';
import { createServer } from 'node:net';
import { build, DEMO_PASSWORD } from '../helper.ts';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

async function signInWithProvider(base: string, email: string, password = DEMO_PASSWORD) {
  const start = await fetch(`${base}/v1/auth/oidc/start`, { redirect: 'manual' });
  t.equal(start.status, 302);
  const flowCookie = start.headers.get('set-cookie')!.split(';')[0];
  const authorize = new URL(start.headers.get('location')!);
  t.equal(authorize.pathname, '/oidc/authorize');
  t.equal(authorize.searchParams.get('code_challenge_method'), 'S256');
  const page = await fetch(authorize);
  t.match(await page.text(), /Local identity provider/);
  const form = new URLSearchParams({ email, password });
  for (const k of ['client_id', 'redirect_uri', 'state', 'nonce', 'code_challenge', 'code_challenge_method']) form.set(k, authorize.searchParams.get(k) ?? '');
  const granted = await fetch(`${base}/oidc/authorize`, { method: 'POST', body: form, redirect: 'manual' });
  if (granted.status !== 302) return { status: granted.status, provider: await granted.text() };
  const callback = await fetch(granted.headers.get('location')!, { headers: { cookie: flowCookie }, redirect: 'manual' });
  const html = await callback.text();
  const result = JSON.parse(html.match(/data-result='([^']*)'/)![1].replace(/&#39;/g, "'"));
  // The token rides only in the httpOnly cookie, never in the page a script could read.
  const token = /(?:^|, )token=([^;]+)/.exec(callback.headers.get('set-cookie') ?? '')?.[1];
  return { status: callback.status, result, token };
}

t.test('social sign-in through the local OpenID provider', async (t) => {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const app = await build(t, { config: { PUBLIC_URL: base, PORT: port } });
  await app.listen({ host: '127.0.0.1', port });

  t.test('a verified account signing in with its password gets a working token', async (t) => {
    const { status, result, token } = await signInWithProvider(base, 'alice@acme.example');
    t.equal(status, 200);
    t.same(result, { type: 'cc-oidc', signedIn: true }, 'the page carries no token');
    const me = await app.inject({ method: 'GET', url: '/v1/auth/me', cookies: { token: token! } });
    t.equal(me.json().claims.email, 'alice@acme.example');
  });

  t.test('an account whose e-mail is not verified is refused, and stays unverified', async (t) => {
    const { status, result } = await signInWithProvider(base, 'pending@acme.example');
    t.equal(status, 403);
    t.same(result, { type: 'cc-oidc', error: 'Email is not verified' });
    const { rows } = await app.env.pool.query('SELECT email_verified FROM app_user WHERE id = $1', ['pending@acme.example']);
    t.equal(rows[0].email_verified, false);
  });

  t.test('a wrong password is refused at the provider, which hands out no code', async (t) => {
    const { status, provider } = await signInWithProvider(base, 'alice@acme.example', 'not-the-password');
    t.equal(status, 401);
    t.match(provider, /Invalid username or password/);
  });

  t.test('an e-mail without an account is refused at the provider', async (t) => {
    const { status, provider } = await signInWithProvider(base, 'stranger@elsewhere.example');
    t.equal(status, 401);
    t.match(provider, /Invalid username or password/);
  });

  t.test('a redirect_uri other than the api callback is refused on authorize, without redirecting', async (t) => {
    const start = await fetch(`${base}/v1/auth/oidc/start`, { redirect: 'manual' });
    const authorize = new URL(start.headers.get('location')!);
    t.equal(authorize.searchParams.get('redirect_uri'), `${base}/v1/auth/oidc/callback`);
    authorize.searchParams.set('redirect_uri', 'https://attacker.example/steal');
    const page = await fetch(authorize, { redirect: 'manual' });
    t.equal(page.status, 400);
    t.same(await page.json(), { detail: 'redirect_uri is not registered for this client' });
    const form = new URLSearchParams({ email: 'alice@acme.example', password: DEMO_PASSWORD });
    for (const [k, v] of authorize.searchParams) form.set(k, v);
    const posted = await fetch(`${base}/oidc/authorize`, { method: 'POST', body: form, redirect: 'manual' });
    t.equal(posted.status, 400);
    t.equal(posted.headers.get('location'), null);
  });

  t.test('a callback without the flow cookie is refused', async (t) => {
    const res = await fetch(`${base}/v1/auth/oidc/callback?code=x&state=y`);
    t.equal(res.status, 400);
  });
});
