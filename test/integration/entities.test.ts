/** Entity management (spec 001 §2.6, §5, §7, §8): list, create, update, admins; admins only. */
import t from 'tap';
import { build, login, bearer } from '../helper.ts';

t.test('entities', async (t) => {
  const app = await build(t);
  const admin = bearer(await login(app, 'admin@commandcenter.local'));
  const alice = bearer(await login(app, 'alice@acme.example'));

  t.test('list ordered by name, with admins', async (t) => {
    const res = await app.inject({ method: 'GET', url: '/v1/entities/', headers: admin });
    t.equal(res.statusCode, 200);
    t.same(res.json(), [
      { id: 'nordic-group', name: 'Nordic Group', email_domain_allowed: 'acme.example\nglobex.example', admins: ['alice@acme.example'] },
      { id: 'solo-ventures', name: 'Solo Ventures', email_domain_allowed: 'initech.example', admins: [] },
    ]);
  });

  t.test('create: name required, domains one per line, id from the name', async (t) => {
    for (const name of ['', '   ']) {
      const res = await app.inject({ method: 'POST', url: '/v1/entities/', payload: { name }, headers: admin });
      t.same([res.statusCode, res.json()], [400, { detail: 'name: This field is required' }]);
    }
    const missing = await app.inject({ method: 'POST', url: '/v1/entities/', payload: {}, headers: admin });
    t.equal(missing.statusCode, 400);
    const badDomain = await app.inject({ method: 'POST', url: '/v1/entities/', payload: { name: 'Øresund Holding', email_domain_allowed: 'good.example\nnot a domain' }, headers: admin });
    t.same(badDomain.json(), { detail: 'email_domain_allowed: not a domain name: not, a, domain' });
    const res = await app.inject({
      method: 'POST',
      url: '/v1/entities/',
      payload: { name: ' Øresund Holding ', email_domain_allowed: ' @Oresund.example\n\nsub.oresund.example\noresund.example ' },
      headers: admin,
    });
    t.equal(res.statusCode, 201, res.body);
    t.same(res.json(), { id: 'oresund-holding', name: 'Øresund Holding', email_domain_allowed: 'oresund.example\nsub.oresund.example', admins: [] });
    const twin = await app.inject({ method: 'POST', url: '/v1/entities/', payload: { name: 'Oresund holding' }, headers: admin });
    t.equal(twin.json().id, 'oresund-holding-2', 'a second entity of the same name gets its own id');
  });

  t.test('update', async (t) => {
    const res = await app.inject({ method: 'PUT', url: '/v1/entities/solo-ventures/', payload: { name: 'Solo Ventures AB', email_domain_allowed: 'initech.example\ninitrode.example' }, headers: admin });
    t.same(res.json(), { id: 'solo-ventures', name: 'Solo Ventures AB', email_domain_allowed: 'initech.example\ninitrode.example', admins: [] });
    const keep = await app.inject({ method: 'PUT', url: '/v1/entities/solo-ventures/', payload: { name: 'Solo Ventures' }, headers: admin });
    t.equal(keep.json().email_domain_allowed, 'initech.example\ninitrode.example', 'omitted domains are kept');
    const blank = await app.inject({ method: 'PUT', url: '/v1/entities/solo-ventures/', payload: { name: '' }, headers: admin });
    t.same(blank.json(), { detail: 'name: This field is required' });
    const none = await app.inject({ method: 'PUT', url: '/v1/entities/nowhere/', payload: { name: 'X' }, headers: admin });
    t.same([none.statusCode, none.json()], [404, { detail: 'Entity not found' }]);
    const one = await app.inject({ method: 'GET', url: '/v1/entities/solo-ventures/', headers: admin });
    t.equal(one.json().name, 'Solo Ventures');
    t.equal((await app.inject({ method: 'GET', url: '/v1/entities/nowhere/', headers: admin })).statusCode, 404);
  });

  t.test('admins: add and remove', async (t) => {
    const url = '/v1/entities/solo-ventures/admins/';
    const unknown = await app.inject({ method: 'POST', url, payload: { admins: ['nobody@initech.example'] }, headers: admin });
    t.same([unknown.statusCode, unknown.json()], [400, { detail: 'Unknown user(s): nobody@initech.example' }]);
    const bad = await app.inject({ method: 'POST', url, payload: { admins: ['bob@initech'] }, headers: admin });
    t.same(bad.json(), { detail: 'Email is not valid: bob@initech' });
    const add = await app.inject({ method: 'POST', url, payload: { admins: ['Bob@Initech.example', 'admin@commandcenter.local'] }, headers: admin });
    t.same(add.json().admins, ['admin@commandcenter.local', 'bob@initech.example']);
    const again = await app.inject({ method: 'POST', url, payload: { admins: ['bob@initech.example'] }, headers: admin });
    t.same(again.json().admins, ['admin@commandcenter.local', 'bob@initech.example'], 'adding twice is harmless');
    const remove = await app.inject({ method: 'DELETE', url, payload: { admins: ['bob@initech.example'] }, headers: admin });
    t.same(remove.json().admins, ['admin@commandcenter.local']);
    const noEntity = await app.inject({ method: 'POST', url: '/v1/entities/nowhere/admins/', payload: { admins: ['bob@initech.example'] }, headers: admin });
    t.same([noEntity.statusCode, noEntity.json()], [404, { detail: 'Entity not found' }]);
  });

  t.test('only admins', async (t) => {
    const victor = bearer(await login(app, 'victor@acme.example'));
    for (const headers of [alice, victor]) {
      t.equal((await app.inject({ method: 'GET', url: '/v1/entities/', headers })).statusCode, 403);
      t.equal((await app.inject({ method: 'POST', url: '/v1/entities/', payload: { name: 'Mine' }, headers })).statusCode, 403);
      t.equal((await app.inject({ method: 'PUT', url: '/v1/entities/nordic-group/', payload: { name: 'Mine' }, headers })).statusCode, 403);
      t.equal((await app.inject({ method: 'POST', url: '/v1/entities/nordic-group/admins/', payload: { admins: ['alice@acme.example'] }, headers })).statusCode, 403);
    }
    t.equal((await app.inject({ method: 'GET', url: '/v1/entities/' })).statusCode, 401);
  });
});
