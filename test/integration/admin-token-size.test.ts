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
  const meText = await me.text();
  const { claims } = JSON.parse(meText) as { claims: { admin: boolean; email: string; customers: { id: string; name: string }[]; customer_count: number } };
  t.equal(claims.admin, true);
  t.equal(claims.email, 'admin@commandcenter.local');
  // The claims name the first customers only; the picker searches the rest.
  t.ok(meText.length < 4096, `/v1/auth/me is ${meText.length} bytes with 503 customers`);
  t.equal(claims.customer_count, 503, 'every customer is counted');
  t.equal(claims.customers.length, 25, 'the first 25 by name are named');
  t.same(claims.customers.slice(0, 2).map((c) => c.id), ['acme-corp', 'globex'], 'by name');

  const search = async (query: string) => {
    const res = await fetch(`${base}/v1/auth/me/customers?${query}`, { headers: { authorization } });
    t.equal(res.status, 200, `/v1/auth/me/customers?${query}`);
    return (await res.json()) as { items: { id: string; name: string }[]; total: number };
  };
  const found = await search('q=customers%20420');
  t.same(found, { items: [{ id: 'many-aeca', name: 'Many customers 420', entity: null }], total: 1 }, 'a customer past the first page is found by name');
  t.same((await search('q=MANY-ABCD')).items.map((c) => c.name), ['Many customers 123'], 'or by id, any case');
  const paged = await search('q=many&offset=490&limit=25');
  t.equal(paged.total, 500, 'the total of the matches');
  t.equal(paged.items.length, 10, 'the last page');
  t.same((await search('q=100%25')).items, [], 'a % is a character, not a wildcard');

  // A customer sees only their own customers there.
  const alice = await fetch(`${base}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'alice@acme.example', password: DEMO_PASSWORD }),
  });
  const aliceToken = ((await alice.json()) as { token: string }).token;
  const mine = await fetch(`${base}/v1/auth/me/customers?q=many`, { headers: { authorization: `Bearer ${aliceToken}` } });
  t.same(await mine.json(), { items: [], total: 0 }, 'alice finds none of the other customers');
  const all = await fetch(`${base}/v1/auth/me/customers`, { headers: { authorization: `Bearer ${aliceToken}` } });
  t.same(((await all.json()) as { items: { id: string }[] }).items.map((c) => c.id), ['acme-corp', 'globex'], 'only her own');

  const inbox = await fetch(`${base}/v1/operations/inbox`, { headers: { authorization } });
  t.equal(inbox.status, 200, '/v1/operations/inbox answers');
});
