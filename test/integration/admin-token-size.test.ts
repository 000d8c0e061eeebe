import t from 'tap';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { build, DEMO_PASSWORD } from '../helper.ts';

/**
 * An admin reaches every customer. Their access token must not grow with the customers: over real HTTP, with
 * Node's own header limit (not raised by NODE_OPTIONS), an admin with 500 customers can still call the api.
 */
t.test('an admin’s token stays small with 500 customers', async (t) => {
  // The point is Node's default limit; a run under a raised one would prove nothing.
  t.ok(http.maxHeaderSize <= 16 * 1024, `Node's header limit is the default (${http.maxHeaderSize} bytes)`);
  const app = await build(t);
  await app.env.pool.query(
    `INSERT INTO customer (customer_id, customer_name, billing_account_ids, billing_currency)
     SELECT 'many-' || translate(lpad(i::text, 4, '0'), '0123456789', 'abcdefghij'), 'Many customers ' || i, ARRAY['MANY-' || i], 'EUR'
       FROM generate_series(1, 500) AS i`,
  );
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

  const login = await fetch(`${base}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@commandcenter.local', password: DEMO_PASSWORD }),
  });
  t.equal(login.status, 200);
  const { token } = (await login.json()) as { token: string };
  t.ok(token.length < 4096, `the token is ${token.length} bytes`);
  const cookie = /(?:^|, )token=([^;]+)/.exec(login.headers.get('set-cookie') ?? '')?.[1] ?? '';
  t.ok(cookie.length > 0 && cookie.length < 4096, `the token cookie is ${cookie.length} bytes (browsers keep at most 4 KB)`);

  const authorization = `Bearer ${token}`;
  const me = await fetch(`${base}/v1/auth/me`, { headers: { authorization } });
  t.equal(me.status, 200, '/v1/auth/me answers');
  const { claims } = (await me.json()) as { claims: { admin: boolean; email: string } };
  t.equal(claims.admin, true);
  t.equal(claims.email, 'admin@commandcenter.local');

  const inbox = await fetch(`${base}/v1/operations/inbox`, { headers: { authorization } });
  t.equal(inbox.status, 200, '/v1/operations/inbox answers');
});
