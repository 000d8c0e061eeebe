/**
 * Inputs that once broke the api, one named case each: every such input answers 400 `{ detail }`
 * (before the input policy each of these was a 500 from PostgreSQL or a crash).
 */
import t from 'tap';
import type { InjectOptions } from 'fastify';
import { build, login, bearer } from '../helper.ts';
import { DEEP_JSON } from './openapi.ts';

t.test('hostile input answers 400 { detail }', async (t) => {
  const app = await build(t);
  const admin = bearer(await login(app, 'admin@commandcenter.local'));
  const alice = bearer(await login(app, 'alice@acme.example'));
  const json = { 'content-type': 'application/json' };

  const cases: [string, InjectOptions][] = [
    ['NUL byte in the login e-mail', { method: 'POST', url: '/v1/auth/login', headers: json, payload: '{"email":"admin@commandcenter.local\\u0000","password":"commandcenter"}' }],
    ['NUL byte in a path id', { method: 'GET', url: '/v1/users/a%00b/', headers: admin }],
    ['NUL byte in a query', { method: 'GET', url: '/v1/users/?q=a%00b', headers: admin }],
    ['NUL byte in a JSON string', { method: 'POST', url: '/v1/entities/', headers: { ...admin, ...json }, payload: '{"name":"a\\u0000b"}' }],
    ['control character in a path id', { method: 'GET', url: '/v1/entities/a%07b/', headers: admin }],
    ['lone surrogate into a jsonb column', { method: 'POST', url: '/v1/logs', headers: { ...alice, ...json }, payload: '{"resource":"/x","type":"crash","data":{"m":"\\ud800"}}' }],
    ['NUL in a JSON key into a jsonb column', { method: 'POST', url: '/v1/logs', headers: { ...alice, ...json }, payload: '{"resource":"/x","type":"crash","data":{"k\\u0000":1}}' }],
    ['5,000-deep JSON into the error log', { method: 'POST', url: '/v1/logs', headers: { ...alice, ...json }, payload: `{"resource":"/x","type":"crash","data":${DEEP_JSON}}` }],
    ['invalid UTF-8 in a path', { method: 'GET', url: '/v1/users/%FF%FE/', headers: admin }],
    ['invalid UTF-8 in a query', { method: 'GET', url: '/v1/users/?q=%ED%A0%80', headers: admin }],
    ['offset 1e309', { method: 'GET', url: '/v1/jira/msp_tickets/acme-corp/list?offset=1e309', headers: alice }],
    ['offset 99999999999999999999', { method: 'GET', url: '/v1/jira/msp_tickets/acme-corp/list?offset=99999999999999999999', headers: alice }],
    ['limit 1e309', { method: 'GET', url: '/v1/jira/msp_tickets/acme-corp/list?limit=1e309', headers: alice }],
    ['page 1e309', { method: 'GET', url: '/v1/users/?page=1e309', headers: admin }],
    ['page 99999999999999999999', { method: 'GET', url: '/v1/users/?page=99999999999999999999', headers: admin }],
    ['page_size 1e309', { method: 'GET', url: '/v1/users/?page_size=1e309', headers: admin }],
    ['ops mail offset 99999999999999999999', { method: 'GET', url: '/v1/ops/mail?offset=99999999999999999999', headers: admin }],
    ['alert id 99999999999999999999', { method: 'DELETE', url: '/v1/alerts/acme-corp/', headers: { ...alice, ...json }, payload: '{"ids":[99999999999999999999]}' }],
    ['alert id 1e309', { method: 'DELETE', url: '/v1/alerts/acme-corp/', headers: { ...alice, ...json }, payload: '{"ids":[1e309]}' }],
  ];
  for (const [name, request] of cases) {
    const res = await app.inject(request);
    t.equal(res.statusCode, 400, `${name}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    t.type(res.json().detail, 'string', `${name}: answers { detail }`);
  }

  t.test('ordinary text with tabs and newlines still passes', async (t) => {
    const res = await app.inject({ method: 'POST', url: '/v1/logs', headers: { ...alice, ...json }, payload: JSON.stringify({ resource: '/x', type: 'crash', data: { stack: 'Error: x\n\tat y (z.js:1:2)\r\n', emoji: '😀' } }) });
    t.equal(res.statusCode, 201);
  });
});
