import t from 'tap';
import { build, login, bearer, DEMO_PASSWORD } from '../helper.ts';

t.test('sign-in with e-mail and password', async (t) => {
  const app = await build(t);

  t.test('right password gives a token with the spec claims', async (t) => {
    const res = await app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email: 'Alice@Acme.example', password: DEMO_PASSWORD } });
    t.equal(res.statusCode, 200);
    const body = res.json();
    t.match(body.token, /^[\w-]+\.[\w-]+\.[\w-]+$/);
    t.same(body.claims.customers.map((c: { id: string }) => c.id), ['acme-corp', 'globex']);
    t.equal(body.claims.customer_count, 2, 'every customer of hers is named');
    t.equal(body.claims.role, 'customer');
    t.equal(body.claims.admin, false);
    t.ok(body.claims.perms.includes('billing_*'));
    t.match(res.headers['set-cookie'], /token=.*HttpOnly.*SameSite=Strict/i);
  });

  t.test('wrong password and unknown user give the same message', async (t) => {
    for (const email of ['alice@acme.example', 'nobody@acme.example']) {
      const res = await app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email, password: 'wrong-password' } });
      t.equal(res.statusCode, 401);
      t.same(res.json(), { detail: 'Invalid username or password' });
    }
  });

  t.test('unverified e-mail cannot sign in', async (t) => {
    const res = await app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email: 'pending@acme.example', password: DEMO_PASSWORD } });
    t.equal(res.statusCode, 403);
    t.same(res.json(), { detail: 'Please check your email to activate this account' });
  });

  t.test('password shorter than 6 characters is a 400', async (t) => {
    const res = await app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email: 'alice@acme.example', password: '12345' } });
    t.equal(res.statusCode, 400);
    t.same(res.json(), { detail: 'body/password must NOT have fewer than 6 characters' });
  });

  t.test('malformed e-mail is a 400', async (t) => {
    const res = await app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email: 'alice@acme', password: DEMO_PASSWORD } });
    t.equal(res.statusCode, 400);
    t.match(res.json().detail, /^body\/email must match pattern/);
  });
});

t.test('tokens', async (t) => {
  const app = await build(t);

  t.test('no token is a 401', async (t) => {
    const res = await app.inject({ method: 'GET', url: '/v1/auth/me' });
    t.equal(res.statusCode, 401);
    t.same(res.json(), { detail: 'Authentication required' });
  });

  t.test('a tampered token is refused', async (t) => {
    const token = await login(app, 'alice@acme.example');
    const [h, p, s] = token.split('.');
    const payload = JSON.parse(Buffer.from(p, 'base64url').toString());
    payload.sub = 'admin@commandcenter.local';
    const forged = [h, Buffer.from(JSON.stringify(payload)).toString('base64url'), s].join('.');
    const res = await app.inject({ method: 'GET', url: '/v1/auth/me', headers: bearer(forged) });
    t.equal(res.statusCode, 401);
    t.same(res.json(), { detail: 'Invalid token' });
  });

  t.test('an expired token is refused', async (t) => {
    const expired = app.jwt.sign({ sub: 'alice@acme.example', claims: null }, { jti: 'x', expiresIn: 1 });
    await new Promise((r) => setTimeout(r, 1100));
    const res = await app.inject({ method: 'GET', url: '/v1/auth/me', headers: bearer(expired) });
    t.equal(res.statusCode, 401);
    t.same(res.json(), { detail: 'Token expired' });
  });

  t.test('the token cookie authenticates too', async (t) => {
    const token = await login(app, 'alice@acme.example');
    const res = await app.inject({ method: 'GET', url: '/v1/auth/me', cookies: { token } });
    t.equal(res.statusCode, 200);
    t.equal(res.json().claims.email, 'alice@acme.example');
  });

  t.test('refresh gives a new working token', async (t) => {
    const token = await login(app, 'alice@acme.example');
    const res = await app.inject({ method: 'POST', url: '/v1/auth/refresh', headers: bearer(token) });
    t.equal(res.statusCode, 200);
    const fresh = res.json().token;
    t.not(fresh, token);
    t.equal((await app.inject({ method: 'GET', url: '/v1/auth/me', headers: bearer(fresh) })).statusCode, 200);
  });

  t.test('logout revokes the token', async (t) => {
    const token = await login(app, 'alice@acme.example');
    const out = await app.inject({ method: 'POST', url: '/v1/auth/logout', headers: bearer(token) });
    t.equal(out.statusCode, 204);
    const res = await app.inject({ method: 'GET', url: '/v1/auth/me', headers: bearer(token) });
    t.equal(res.statusCode, 401);
    t.same(res.json(), { detail: 'Token revoked' });
  });
});
