import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { build, login, bearer } from '../helper.ts';
import { raise, upload } from '../fakes/tickets-client.ts';
import { PNG } from '../fakes/files.ts';

async function setup(t: { teardown(fn: () => unknown): void }) {
  const dir = mkdtempSync(join(tmpdir(), 'cc-attach-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const app = await build(t, { config: { ATTACHMENT_DIR: dir } });
  const [alice, admin, victor] = await Promise.all(['alice@acme.example', 'admin@commandcenter.local', 'victor@acme.example'].map((e) => login(app, e)));
  return { app, alice, admin, victor };
}

const call = (app: FastifyInstance, token: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
  app.inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });

t.test('transitions come from the server per role and status', async (t) => {
  const { app, alice, admin, victor } = await setup(t);
  const ask = async (token: string, role: string, status: string) => {
    const res = await call(app, token, 'GET', `/v1/jira/msp_tickets/${role}/${encodeURIComponent(status)}/transitions?status=${encodeURIComponent(status)}`);
    return res.statusCode === 200 ? res.json().transitions.map((x: { name: string }) => x.name) : res.statusCode;
  };
  t.same(await ask(admin, 'admin', 'Open'), ['In Progress', 'Resolved', 'Cancel']);
  t.same(await ask(admin, 'admin', 'In Progress'), ['Open', 'Resolved', 'Cancel']);
  t.same(await ask(admin, 'admin', 'Resolved'), ['In Progress', 'Closed']);
  t.same(await ask(alice, 'customer', 'Open'), ['Cancel']);
  t.same(await ask(alice, 'customer', 'In Progress'), ['Cancel']);
  t.same(await ask(alice, 'customer', 'Resolved'), ['In Progress', 'Closed']);
  t.same(await ask(victor, 'customer', 'Resolved'), ['In Progress', 'Closed'], 'viewers read the table too');
  for (const role of ['admin', 'customer']) {
    t.same(await ask(admin, role, 'Closed'), [], `${role}: Closed loads no transitions`);
    t.same(await ask(admin, role, 'Cancel'), [], `${role}: Cancel is final`);
  }
  t.equal(await ask(alice, 'admin', 'Open'), 403, "a customer does not read the provider's table");
  t.equal(await ask(alice, 'customer', 'Done'), 400);
  t.equal(await ask(alice, 'boss', 'Open'), 400);
});

t.test('status and priority changes need a comment and follow the table', async (t) => {
  const { app, alice, admin, victor } = await setup(t);
  const first = await upload(app, alice, 'first.png', PNG);
  const { id, body: raised } = await raise(app, alice, 'acme-corp', { attachments: [first.name] });
  const base = `/v1/jira/msp_tickets/${id}`;
  const kept = (raised.attachments as { id: string }[])[0];

  let res = await call(app, admin, 'PATCH', `${base}/status`, { name: 'In Progress', author: 'admin@commandcenter.local' });
  t.equal(res.statusCode, 400);
  t.same(res.json(), { detail: 'This field is required' }, 'no comment, no change');
  res = await call(app, admin, 'PATCH', `${base}/status`, { name: 'In Progress', comment_body: '  ' });
  t.same(res.json(), { detail: 'This field is required' });

  // spec 000 §4 flow: the comment carrying previous and current status, then the patch
  res = await call(app, admin, 'POST', `${base}/comment`, { message: 'Looking into it', previous_status: 'Open', current_status: 'In Progress' });
  t.equal(res.statusCode, 201);
  t.match(res.json(), { message: 'Looking into it', author: 'admin@commandcenter.local', previous_status: 'Open', current_status: 'In Progress' });
  res = await call(app, admin, 'PATCH', `${base}/status`, { name: 'In Progress', author: 'admin@commandcenter.local' });
  t.equal(res.statusCode, 200);
  t.equal(res.json().status, 'In Progress');
  t.equal(res.json().first_response_by, 'admin@commandcenter.local', "the provider's first comment is the first response");
  t.equal(res.json().first_response_bucket, '< 1h');

  res = await call(app, alice, 'POST', `${base}/comment`, { message: 'x', previous_status: 'In Progress', current_status: 'Resolved' });
  t.equal(res.statusCode, 400, 'a customer cannot describe a change the table refuses');
  t.same(res.json(), { detail: 'A ticket cannot move from In Progress to Resolved' });
  res = await call(app, alice, 'PATCH', `${base}/status`, { name: 'Resolved', comment_body: 'done?' });
  t.same(res.json(), { detail: 'A ticket cannot move from In Progress to Resolved' });
  res = await call(app, victor, 'PATCH', `${base}/status`, { name: 'Cancel', comment_body: 'no' });
  t.equal(res.statusCode, 403, 'a viewer changes nothing');

  // priority: comment required, carried with previous and current value
  res = await call(app, alice, 'PATCH', `${base}/priority`, { priority: { name: 'P1', author: 'alice@acme.example' } });
  t.equal(res.statusCode, 400);
  t.same(res.json(), { detail: 'This field is required' });
  res = await call(app, alice, 'PATCH', `${base}/priority`, { priority: { name: 'P0' }, comment_body: 'worse' });
  t.same(res.json(), { detail: 'Priority must be one of P1, P2, P3, P4' });
  res = await call(app, alice, 'PATCH', `${base}/priority`, { priority: { name: 'P1' }, comment_body: { message: 'Production is down now', author: 'x' } });
  t.equal(res.statusCode, 200);
  t.equal(res.json().priority, 'P1');
  const comments = (await call(app, alice, 'GET', `${base}/comment`)).json();
  t.match(comments[0], { message: 'Production is down now', author: 'alice@acme.example', previous_priority: 'P2', current_priority: 'P1' }, 'newest first');
  t.equal(comments.length, 2);

  res = await call(app, admin, 'PATCH', `${base}/status`, { name: 'Resolved', comment_body: 'Disk extended' });
  t.equal(res.statusCode, 200);
  res = await call(app, admin, 'PATCH', `${base}/priority`, { priority: { name: 'P3' }, comment_body: 'lower' });
  t.equal(res.statusCode, 400);
  t.same(res.json(), { detail: 'The priority of a Resolved ticket cannot be changed' });
  res = await call(app, alice, 'PATCH', `${base}/satisfaction`, { score: 5, message: 'great' });
  t.same(res.json(), { detail: 'Satisfaction can be given only on a Closed ticket' });

  res = await call(app, alice, 'PATCH', `${base}/status`, { name: 'Closed', comment_body: 'Thanks, works' });
  t.equal(res.statusCode, 200);
  t.equal(res.json().status, 'Closed');
  t.equal(res.json().customer_satisfaction_comment, null, "a Closed ticket without a score (the screen shows 'To be provided')");

  // Closed: no comment, no attachment added or deleted, no status change
  const att = await upload(app, alice, 'late.png', PNG);
  t.same((await call(app, alice, 'POST', `${base}/comment`, { message: 'one more thing' })).json(), { detail: 'The ticket is Closed: it can no longer be changed' });
  t.same((await call(app, alice, 'PATCH', `${base}/attachment`, { name: att.name })).json(), { detail: 'The ticket is Closed: it can no longer be changed' });
  t.same((await call(app, admin, 'PATCH', `${base}/status`, { name: 'Open', comment_body: 'reopen' })).json(), { detail: 'The status of a Closed ticket cannot be changed' });
  res = await call(app, admin, 'DELETE', `${base}/attachment/${kept.id}`);
  t.equal(res.statusCode, 400, 'not even the provider deletes a file of a Closed ticket');
  t.same(res.json(), { detail: 'The ticket is Closed: it can no longer be changed' });
  t.same((await call(app, alice, 'GET', base)).json().attachments.map((a: { id: string }) => a.id), [kept.id], 'the file is still there');
  t.same((await call(app, admin, 'POST', `${base}/comment`, { message: 'admin note' })).json(), { detail: 'The ticket is Closed: it can no longer be changed' });

  // satisfaction: never by an admin, score and comment required, once
  t.same((await call(app, admin, 'PATCH', `${base}/satisfaction`, { score: 5, message: 'x' })).json(), { detail: 'Satisfaction is given by the customer, not by an admin' });
  t.same((await call(app, alice, 'PATCH', `${base}/satisfaction`, { message: 'no score' })).json(), { detail: 'Please, select satisfaction score' });
  t.same((await call(app, alice, 'PATCH', `${base}/satisfaction`, { score: 6, message: 'x' })).json(), { detail: 'Please, select satisfaction score' });
  t.same((await call(app, alice, 'PATCH', `${base}/satisfaction`, { score: 4 })).json(), { detail: 'This field is required' });
  res = await call(app, alice, 'PATCH', `${base}/satisfaction`, { score: 4, message: 'Quick and clear', author: 'spoof@example.com' });
  t.equal(res.statusCode, 200);
  t.equal(res.json().customer_satisfaction_score, 4);
  t.match(res.json().customer_satisfaction_comment, { author: 'alice@acme.example', message: 'Quick and clear' });
  t.same((await call(app, alice, 'PATCH', `${base}/satisfaction`, { score: 5, message: 'again' })).json(), { detail: 'Satisfaction has already been given for this ticket' });
  const listed = (await call(app, alice, 'GET', '/v1/jira/msp_tickets/acme-corp/list')).json();
  t.equal(listed[0].customer_satisfaction_score, 4);
});

t.test('a cancelled ticket refuses comments and attachment changes', async (t) => {
  const { app, alice } = await setup(t);
  const att = await upload(app, alice, 'a.png', PNG);
  const { id, body } = await raise(app, alice, 'acme-corp', { attachments: [att.name] });
  const base = `/v1/jira/msp_tickets/${id}`;
  let res = await call(app, alice, 'PATCH', `${base}/status`, { name: 'Cancel', comment_body: 'Found it myself' });
  t.equal(res.statusCode, 200);
  t.equal(res.json().status, 'Cancel');
  const first = (body.attachments as { id: string }[])[0];
  res = await call(app, alice, 'DELETE', `${base}/attachment/${first.id}`);
  t.equal(res.statusCode, 400);
  t.same(res.json(), { detail: 'The ticket is Cancel: it can no longer be changed' });
  res = await call(app, alice, 'POST', `${base}/comment`, { message: 'hello?' });
  t.same(res.json(), { detail: 'The ticket is Cancel: it can no longer be changed' });
  const late = await upload(app, alice, 'late.png', PNG);
  res = await call(app, alice, 'PATCH', `${base}/attachment`, { name: late.name });
  t.same(res.json(), { detail: 'The ticket is Cancel: it can no longer be changed' });
  t.equal((await call(app, alice, 'GET', base)).json().attachments.length, 1, 'no file added to a cancelled ticket');
  const comments = (await call(app, alice, 'GET', `${base}/comment`)).json();
  t.equal(comments.length, 1, 'only the cancel comment');
  t.match(comments[0], { previous_status: 'Open', current_status: 'Cancel' });
  res = await call(app, alice, 'POST', `${base}/comment`, { message: 'c'.repeat(30_001) });
  t.equal(res.statusCode, 400);
});

t.test('comment length', async (t) => {
  const { app, alice } = await setup(t);
  const { id } = await raise(app, alice, 'acme-corp');
  let res = await call(app, alice, 'POST', `/v1/jira/msp_tickets/${id}/comment`, { message: 'c'.repeat(30_001) });
  t.same(res.json(), { detail: 'Comment must be at most 30000 characters' });
  res = await call(app, alice, 'POST', `/v1/jira/msp_tickets/${id}/comment`, { message: '' });
  t.same(res.json(), { detail: 'This field is required' });
  res = await call(app, alice, 'POST', `/v1/jira/msp_tickets/${id}/comment`, { message: 'c'.repeat(30_000), author: 'spoof@example.com', date: '2000-01-01' });
  t.equal(res.statusCode, 201);
  t.equal(res.json().author, 'alice@acme.example', 'the server stamps the author');
});
