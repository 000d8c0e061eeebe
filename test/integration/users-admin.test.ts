/**
 * User management (spec 001 §2.7, §4, §5, §8): list, invite, update, delete with every rule and message,
 * the move / remove semantics across the users, notify and alert lists, claims effective on the moved
 * user's next request, the live event stream, and admin-only access.
 */
import t from 'tap';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { build, login, bearer } from '../helper.ts';

type App = Awaited<ReturnType<typeof build>>;

const getCustomer = (app: App, id: string, headers: Record<string, string>) => app.inject({ method: 'GET', url: `/v1/customers/${id}/`, headers });

t.test('user list', async (t) => {
  const app = await build(t);
  const admin = bearer(await login(app, 'admin@commandcenter.local'));

  t.test('sorted by e-mail with role, entities and customer access', async (t) => {
    const res = await app.inject({ method: 'GET', url: '/v1/users/', headers: admin });
    t.equal(res.statusCode, 200, res.body);
    const page = res.json();
    t.same(page.users.map((u: { id: string }) => u.id), [
      'admin@commandcenter.local', 'alice@acme.example', 'bob@initech.example', 'pending@acme.example', 'victor@acme.example',
    ]);
    t.match(page, { total: 5, page: 0, page_size: 100 });
    const alice = page.users[1];
    t.same(alice, {
      id: 'alice@acme.example',
      email: 'alice@acme.example',
      role: 'customer',
      email_verified: true,
      invitation_pending: false,
      entities: ['Nordic Group'],
      customers: [
        { id: 'acme-corp', name: 'Acme Corp', entity: 'nordic-group', entity_name: 'Nordic Group' },
        { id: 'globex', name: 'Globex Corporation', entity: 'nordic-group', entity_name: 'Nordic Group' },
      ],
    });
    t.same(page.users[0].customers, [], 'an admin has no access list entries');
  });

  t.test('an address with access but no user entry shows role null; a customer without entity gives No Entity', async (t) => {
    await app.env.pool.query(`UPDATE customer SET entity = NULL WHERE customer_id = 'initech'`);
    await app.env.pool.query(`INSERT INTO customer_member VALUES ('initech', 'users', 'ghost@initech.example')`);
    await app.access.publish(); // a write outside the api: the access epoch moves before the next request (NOTIFY may lag)
    const res = await app.inject({ method: 'GET', url: '/v1/users/', query: { q: 'initech' }, headers: admin });
    const users = res.json().users;
    t.same(users.map((u: { id: string }) => u.id), ['bob@initech.example', 'ghost@initech.example']);
    t.equal(users[1].role, null);
    t.same(users[0].entities, ['No Entity']);
  });

  t.test('paging and filtering', async (t) => {
    const first = await app.inject({ method: 'GET', url: '/v1/users/', query: { page_size: '2' }, headers: admin });
    t.same(first.json().users.map((u: { id: string }) => u.id), ['admin@commandcenter.local', 'alice@acme.example']);
    t.equal(first.json().total, 6);
    const third = await app.inject({ method: 'GET', url: '/v1/users/', query: { page_size: '2', page: '2' }, headers: admin });
    t.same(third.json().users.map((u: { id: string }) => u.id), ['pending@acme.example', 'victor@acme.example']);
    const past = await app.inject({ method: 'GET', url: '/v1/users/', query: { page_size: '2', page: '9' }, headers: admin });
    t.same(past.json(), { users: [], total: 6, page: 9, page_size: 2 });
    const viewers = await app.inject({ method: 'GET', url: '/v1/users/', query: { q: 'VIEWER' }, headers: admin });
    t.same(viewers.json().users.map((u: { id: string }) => u.id), ['victor@acme.example']);
    const literal = await app.inject({ method: 'GET', url: '/v1/users/', query: { q: '%' }, headers: admin });
    t.equal(literal.json().total, 0, 'LIKE wildcards are literal');
  });

  t.test('one user; unknown user is a 404', async (t) => {
    const res = await app.inject({ method: 'GET', url: `/v1/users/${encodeURIComponent('Victor@Acme.example')}/`, headers: admin });
    t.equal(res.json().role, 'customerViewer');
    const none = await app.inject({ method: 'GET', url: '/v1/users/nobody@x.example/', headers: admin });
    t.same([none.statusCode, none.json()], [404, { detail: 'User not found' }]);
  });
});

t.test('invite users', async (t) => {
  const app = await build(t);
  const admin = bearer(await login(app, 'admin@commandcenter.local'));
  const invite = (payload: object) => app.inject({ method: 'POST', url: '/v1/users/', payload, headers: admin });

  t.test('validation messages', async (t) => {
    const cases: [object, string][] = [
      [{ emails: 'a@b.example', customers: ['globex'] }, 'role: This field is required'],
      [{ role: 'superuser', emails: 'a@b.example', customers: ['globex'] }, 'role: must be one of admin, customer, customerViewer'],
      [{ role: 'customer', emails: '  ', customers: ['globex'] }, 'emails: This field is required'],
      [{ role: 'customer', emails: 'a@b.example, not-an-email', customers: ['globex'] }, 'Email list is not valid'],
      [{ role: 'customer', emails: 'a@b.example,,c@d.example', customers: ['globex'] }, 'Email list is not valid'],
      [{ role: 'customer', emails: 'a@b', customers: ['globex'] }, 'Email list is not valid'],
      [{ role: 'customer', emails: 'a b@c.example', customers: ['globex'] }, 'Email list is not valid'],
      [{ role: 'customer', emails: 'a@b.example', customers: [] }, 'Please grant access to at least one customer'],
      [{ role: 'customer', emails: 'a@b.example' }, 'Please grant access to at least one customer'],
      [{ role: 'customer', emails: 'a@b.example', customers: ['nowhere'] }, 'Unknown customer(s): nowhere'],
      [{ role: 'customer', emails: 'new@globex.example, ALICE@acme.example ', customers: ['globex'] }, 'E-mail already exists: alice@acme.example'],
    ];
    for (const [body, detail] of cases) {
      const res = await invite(body);
      t.equal(res.statusCode, 400, JSON.stringify(body));
      t.same(res.json(), { detail }, JSON.stringify(body));
    }
    const none = await app.inject({ method: 'GET', url: '/v1/users/new@globex.example/', headers: admin });
    t.equal(none.statusCode, 404, 'nothing half-saved');
  });

  t.test('several e-mails, lower-cased and trimmed, granted the chosen customers, invitation sent', async (t) => {
    const res = await invite({ role: 'customer', emails: ' Carol@Globex.example ,dave@globex.example,', customers: ['globex', 'initech'] });
    t.equal(res.statusCode, 201, res.body);
    const invited = res.json().invited;
    t.same(invited.map((u: { id: string }) => u.id), ['carol@globex.example', 'dave@globex.example']);
    t.match(invited[0], { role: 'customer', email_verified: false, invitation_pending: true });
    t.same(invited[0].customers.map((c: { id: string }) => c.id), ['globex', 'initech']);
    const jobs = await app.producers.queues.notify.getJobs(['waiting', 'delayed', 'prioritized']);
    const mails = jobs.map((j) => j.data).filter((d) => d.to[0] === 'carol@globex.example');
    t.equal(mails.length, 1);
    // The key (job id, Message-ID) names the link by a digest, never by its token or the address.
    t.match(mails[0].key, /^invitation-[0-9a-f]{32}$/);
    t.match(mails[0].text, new RegExp(`${app.env.config.PUBLIC_URL}/invitation/[\\w-]{43}`));
    const again = await invite({ role: 'customer', emails: 'carol@globex.example', customers: ['globex'] });
    t.same(again.json(), { detail: 'E-mail already exists: carol@globex.example' });
  });

  t.test('an address already on a granted customer’s list exists', async (t) => {
    await app.env.pool.query(`INSERT INTO customer_member VALUES ('initech', 'users', 'ghost@initech.example')`);
    await app.access.publish(); // a write outside the api: the access epoch moves before the next request (NOTIFY may lag)
    const res = await invite({ role: 'customer', emails: 'ghost@initech.example', customers: ['initech'] });
    t.same(res.json(), { detail: 'E-mail already exists: ghost@initech.example' });
  });
});

t.test('update, move and delete users', async (t) => {
  const app = await build(t);
  const admin = bearer(await login(app, 'admin@commandcenter.local'));
  const put = (id: string, payload: object) => app.inject({ method: 'PUT', url: `/v1/users/${encodeURIComponent(id)}/`, payload, headers: admin });

  t.test('validation messages', async (t) => {
    const cases: [object, string][] = [
      [{ role: 'customer', email: 'alice@acme', customers: ['acme-corp'] }, 'Email is not valid'],
      [{ role: 'customer', email: '', customers: ['acme-corp'] }, 'email: This field is required'],
      [{ role: '', email: 'alice@acme.example', customers: ['acme-corp'] }, 'role: This field is required'],
      [{ role: 'customer', email: 'alice@acme.example', customers: [] }, 'Please grant access to at least one customer'],
      [{ role: 'customer', email: 'bob@initech.example', customers: ['acme-corp'] }, 'E-mail already exists: bob@initech.example'],
    ];
    for (const [body, detail] of cases) {
      const res = await put('alice@acme.example', body);
      t.same([res.statusCode, res.json()], [400, { detail }], JSON.stringify(body));
    }
    const none = await put('nobody@x.example', { role: 'customer', email: 'nobody@x.example', customers: ['globex'] });
    t.same([none.statusCode, none.json()], [404, { detail: 'User not found' }]);
    const self = await put('admin@commandcenter.local', { role: 'customer', email: 'admin@commandcenter.local', customers: ['globex'] });
    t.same(self.json(), { detail: 'You cannot change your own role or e-mail' });
  });

  t.test('moving a user moves them in users, notify and alert lists; effective on their next request', async (t) => {
    const aliceToken = bearer(await login(app, 'alice@acme.example'));
    t.equal((await getCustomer(app, 'acme-corp', aliceToken)).statusCode, 200);
    t.equal((await getCustomer(app, 'initech', aliceToken)).statusCode, 404);
    const res = await put('alice@acme.example', { role: 'customer', email: 'alice@acme.example', customers: ['globex', 'initech'] });
    t.equal(res.statusCode, 200, res.body);
    t.same(res.json().customers.map((c: { id: string }) => c.id), ['globex', 'initech']);
    const acme = (await getCustomer(app, 'acme-corp', admin)).json();
    for (const list of ['users', 'notify', 'alert']) t.notOk(acme[list].includes('alice@acme.example'), `left acme-corp ${list}`);
    const initech = (await getCustomer(app, 'initech', admin)).json();
    for (const list of ['users', 'notify', 'alert']) t.ok(initech[list].includes('alice@acme.example'), `joined initech ${list}`);
    const globex = (await getCustomer(app, 'globex', admin)).json();
    t.same([globex.users, globex.notify, globex.alert], [['alice@acme.example'], ['alice@acme.example'], []], 'kept customer unchanged');
    // Same token, next request: the move is already in effect.
    t.same((await getCustomer(app, 'acme-corp', aliceToken)).json(), { detail: 'Customer not found' });
    t.equal((await getCustomer(app, 'initech', aliceToken)).statusCode, 200);
    const me = await app.inject({ method: 'GET', url: '/v1/auth/me', headers: aliceToken });
    t.same(me.json().claims.customers.map((c: { id: string }) => c.id), ['globex', 'initech']);
  });

  t.test('a role change is effective on the next request; a moved viewer loses the old filters', async (t) => {
    const victorToken = bearer(await login(app, 'victor@acme.example'));
    t.equal((await app.inject({ method: 'GET', url: '/v1/users/', headers: victorToken })).statusCode, 403);
    const res = await put('victor@acme.example', { role: 'admin', email: 'victor@acme.example', customers: ['globex'] });
    t.equal(res.statusCode, 200, res.body);
    t.equal((await app.inject({ method: 'GET', url: '/v1/users/', headers: victorToken })).statusCode, 200, 'now an admin');
    const me = (await app.inject({ method: 'GET', url: '/v1/auth/me', headers: victorToken })).json();
    t.match(me.claims, { role: 'admin', admin: true, filters: [] });
    const { rows } = await app.env.pool.query(`SELECT * FROM viewer_filter WHERE user_id = 'victor@acme.example'`);
    t.same(rows, []);
  });

  t.test('changing the e-mail replaces it everywhere', async (t) => {
    await app.env.pool.query(`INSERT INTO viewer_filter VALUES ('initech', 'bob@initech.example', 'team', 'ops')`);
    const res = await put('bob@initech.example', { role: 'customerViewer', email: ' Robert@Initech.example', customers: ['initech'] });
    t.equal(res.statusCode, 200, res.body);
    t.match(res.json(), { id: 'robert@initech.example', role: 'customerViewer' });
    const initech = (await getCustomer(app, 'initech', admin)).json();
    t.ok(initech.users.includes('robert@initech.example'));
    t.ok(initech.notify.includes('robert@initech.example'));
    t.notOk(initech.users.includes('bob@initech.example'));
    t.same(initech.filters, [{ user: 'robert@initech.example', label_key: 'team', label_value: 'ops' }]);
    const signIn = await app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email: 'robert@initech.example', password: 'commandcenter' } });
    t.equal(signIn.statusCode, 200, 'the password follows the e-mail');
    t.same(signIn.json().claims.filters, [{ customer: 'initech', project_label: [{ label_key: 'team', label_value: 'ops' }] }]);
  });

  t.test('deleting users removes them everywhere; their tokens stop working', async (t) => {
    const pendingToken = await app.env.pool.query(`INSERT INTO entity_admin VALUES ('nordic-group', 'pending@acme.example')`);
    t.ok(pendingToken);
    const aliceToken = bearer(await login(app, 'alice@acme.example'));
    const self = await app.inject({ method: 'DELETE', url: '/v1/users/', payload: { users: ['admin@commandcenter.local'] }, headers: admin });
    t.same(self.json(), { detail: 'You cannot delete your own account' });
    const res = await app.inject({ method: 'DELETE', url: '/v1/users/', payload: { users: ['Alice@acme.example', 'pending@acme.example'] }, headers: admin });
    t.same([res.statusCode, res.json()], [200, { deleted: 2 }]);
    const { rows } = await app.env.pool.query(
      `SELECT 'member' AS t FROM customer_member WHERE user_id IN ('alice@acme.example', 'pending@acme.example')
       UNION ALL SELECT 'admin' FROM entity_admin WHERE user_id IN ('alice@acme.example', 'pending@acme.example')
       UNION ALL SELECT 'user' FROM app_user WHERE id IN ('alice@acme.example', 'pending@acme.example')`,
    );
    t.same(rows, []);
    const after = await getCustomer(app, 'globex', aliceToken);
    t.same([after.statusCode, after.json()], [401, { detail: 'User no longer exists' }]);
    const again = await app.inject({ method: 'DELETE', url: '/v1/users/', payload: { users: ['alice@acme.example'] }, headers: admin });
    t.same([again.statusCode, again.json()], [404, { detail: 'User not found' }]);
  });
});

t.test('only admins reach user management', async (t) => {
  const app = await build(t);
  const alice = bearer(await login(app, 'alice@acme.example'));
  const victor = bearer(await login(app, 'victor@acme.example'));
  for (const headers of [alice, victor]) {
    t.equal((await app.inject({ method: 'GET', url: '/v1/users/', headers })).statusCode, 403);
    t.equal((await app.inject({ method: 'GET', url: '/v1/users/events', headers })).statusCode, 403);
    t.equal((await app.inject({ method: 'POST', url: '/v1/users/', payload: { role: 'admin', emails: 'me@evil.example', customers: ['acme-corp'] }, headers })).statusCode, 403);
    t.equal((await app.inject({ method: 'PUT', url: '/v1/users/alice@acme.example/', payload: { role: 'admin', email: 'alice@acme.example', customers: ['acme-corp'] }, headers })).statusCode, 403);
    t.equal((await app.inject({ method: 'DELETE', url: '/v1/users/', payload: { users: ['bob@initech.example'] }, headers })).statusCode, 403);
  }
  const { rows } = await app.env.pool.query(`SELECT role FROM app_user WHERE id = 'alice@acme.example'`);
  t.equal(rows[0].role, 'customer');
});

t.test('another admin’s open user list hears changes live (server-sent events)', async (t) => {
  const app = await build(t);
  const token = await login(app, 'admin@commandcenter.local');
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;

  const received: string[] = [];
  let onEvent: () => void = () => undefined;
  const req = http.get({ host: '127.0.0.1', port, path: '/v1/users/events', headers: { cookie: `token=${token}` } });
  const res = await new Promise<http.IncomingMessage>((resolve) => req.on('response', resolve));
  t.teardown(() => req.destroy());
  t.equal(res.statusCode, 200);
  t.match(res.headers['content-type'], /text\/event-stream/);
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => {
    received.push(chunk);
    if (received.join('').includes('event: users')) onEvent();
  });
  await new Promise<void>((resolve) => (received.length ? resolve() : res.once('data', () => resolve())));
  const heard = new Promise<void>((resolve) => (onEvent = resolve));

  const change = await app.inject({
    method: 'PUT',
    url: '/v1/users/bob@initech.example/',
    payload: { role: 'customer', email: 'bob@initech.example', customers: ['initech', 'globex'] },
    headers: bearer(token),
  });
  t.equal(change.statusCode, 200);
  await heard;
  const event = received.join('').split('\n\n').find((e) => e.startsWith('event: users'))!;
  t.same(JSON.parse(event.split('\ndata: ')[1]!), { type: 'updated', users: ['bob@initech.example'] });
});
