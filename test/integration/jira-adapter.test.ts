import t from 'tap';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeJira } from '../fakes/jira-server.ts';
import { takeViolations } from '../fakes/spec-violations.ts';
import { jiraCloudTicketSystem, parsePriorityMap } from '@cc/shared/adapters/jira/real.ts';
import { pullChanges, pullIssue, syncTicket } from '../../workers/src/tickets/sync.ts';
import { localAttachmentStore } from '@cc/shared/adapters/attachment-store/local.ts';
import { build, login, bearer } from '../helper.ts';
import { raise, upload } from '../fakes/tickets-client.ts';
import { PNG, PDF } from '../fakes/files.ts';

const CREDS = { email: 'portal@msp.example', apiToken: 'token-123', project: 'MSP', satisfactionField: 'customfield_10050' };

async function fake(t: { teardown(fn: () => unknown): void }) {
  const jira = await startFakeJira(CREDS);
  t.teardown(() => jira.close());
  const system = jiraCloudTicketSystem({
    site: jira.url,
    email: CREDS.email,
    apiToken: CREDS.apiToken,
    project: 'MSP',
    issueType: 'Task',
    priorities: parsePriorityMap('P1=Highest,P2=High,P3=Medium,P4=Low'),
    satisfactionField: CREDS.satisfactionField,
    pageSize: 50,
  });
  return { jira, system };
}

t.test('the Jira Cloud adapter speaks REST v3', async (t) => {
  const { jira, system } = await fake(t);
  const { key } = await system.createIssue({ summary: 'Disk full', description: 'db-1 at 97%\nsecond line', priority: 'P2', labels: ['cc-x'] });
  t.equal(key, 'MSP-1');
  const stored = jira.issues.get(key)!;
  t.same(stored.fields.description, {
    type: 'doc',
    version: 1,
    content: [
      { type: 'paragraph', content: [{ type: 'text', text: 'db-1 at 97%' }] },
      { type: 'paragraph', content: [{ type: 'text', text: 'second line' }] },
    ],
  }, 'the description is sent as ADF');
  t.same(stored.fields.priority, { name: 'High' });
  const create = jira.requests.find((r) => r.method === 'POST' && r.path === '/rest/api/3/issue')!;
  t.equal(create.headers.authorization, `Basic ${Buffer.from('portal@msp.example:token-123').toString('base64')}`);

  let issue = await system.getIssue(key);
  t.match(issue, { key, summary: 'Disk full', description: 'db-1 at 97%\nsecond line', status: 'Open', priority: 'P2', labels: ['cc-x'] });
  t.equal(await system.getIssue('MSP-99'), null);

  const mine = await system.addComment(key, { body: 'alice wrote:\nhello', marker: 'c-1' });
  jira.engineerComment(key, 'We are on it');
  const comments = await system.listComments(key);
  t.same(comments.map((c) => [c.body, c.marker, c.author]), [
    ['alice wrote:\nhello', 'c-1', 'CommandCenter'],
    ['We are on it', null, 'Erin Engineer'],
  ]);
  t.equal(comments[0].id, mine.id);

  await system.transitionTo(key, 'Resolved');
  t.equal(jira.issues.get(key)!.fields.status.name, 'Resolved', 'the transition is found by the status it leads to');
  const before = jira.requests.length;
  await system.transitionTo(key, 'Resolved');
  t.notOk(jira.requests.slice(before).some((r) => r.method === 'POST'), 'no transition when already there');
  await t.rejects(system.transitionTo(key, 'Nowhere'), /offers no transition/);

  await system.setPriority(key, 'P1');
  t.same(jira.issues.get(key)!.fields.priority, { name: 'Highest' });
  await system.setSatisfaction(key, 4);
  t.equal(jira.issues.get(key)!.fields.customfield_10050, 4);

  const att = await system.addAttachment(key, { filename: 'abc-report.pdf', mimeType: 'application/pdf', content: PDF });
  const upload = jira.requests.find((r) => r.path.endsWith('/attachments'))!;
  t.equal(upload.headers['x-atlassian-token'], 'no-check');
  t.ok(jira.issues.get(key)!.attachments[0].content.equals(PDF), 'the bytes arrive intact (multipart, part "file")');
  t.match(att, { filename: 'abc-report.pdf', mimeType: 'application/pdf', size: PDF.length });
  issue = await system.getIssue(key);
  t.equal(issue!.attachments.length, 1);
  t.equal(issue!.satisfaction, 4);
  await system.deleteAttachment(att.id);
  t.equal(jira.issues.get(key)!.attachments.length, 0);
  await system.deleteAttachment(att.id);
  t.pass('deleting an attachment already gone is not an error');

  const wrong = jiraCloudTicketSystem({ site: jira.url, email: 'x@y.z', apiToken: 'bad', project: 'MSP', issueType: 'Task', priorities: parsePriorityMap('') });
  await t.rejects(wrong.createIssue({ summary: 's', description: 'd', priority: 'P1', labels: [] }), { name: 'JiraError', status: 401 });
  t.same(jira.unhandled, []);
});

t.test('search pages with nextPageToken until isLast', async (t) => {
  const { jira, system } = await fake(t);
  jira.seedIssues(120);
  const seen = [];
  for await (const issue of system.searchUpdatedSince(new Date(Date.now() - 10 * 60_000))) seen.push(issue.key);
  t.equal(seen.length, 120);
  t.equal(new Set(seen).size, 120, 'no issue twice');
  const searches = jira.requests.filter((r) => r.path === '/rest/api/3/search/jql').map((r) => JSON.parse(r.body));
  t.equal(searches.length, 3, '50 + 50 + 20');
  t.notOk('nextPageToken' in searches[0]);
  t.ok(searches[1].nextPageToken && searches[2].nextPageToken);
  t.match(searches[0].jql, /^project = "MSP" AND updated >= "-\d+m" ORDER BY updated ASC/);
  t.ok(searches[0].fields.includes('summary'), 'fields are asked for (the endpoint returns only id otherwise)');
  t.same(jira.unhandled, []);
});

t.test('getCommentsByIds answers that are not the last page are followed until every comment is read', async (t) => {
  const { jira, system } = await fake(t);
  const { key } = await system.createIssue({ summary: 'Paged comments', description: 'd', priority: 'P3', labels: [] });
  await system.addComment(key, { body: 'first', marker: 'c-1' });
  for (let i = 2; i <= 5; i++) jira.engineerComment(key, `engineer ${i}`);
  jira.commentListPage(2);
  const comments = await system.listComments(key);
  t.same(comments.map((c) => [c.body, c.marker]), [['first', 'c-1'], ['engineer 2', null], ['engineer 3', null], ['engineer 4', null], ['engineer 5', null]]);
  const lists = jira.requests.filter((r) => r.path.startsWith('/rest/api/3/comment/list')).map((r) => JSON.parse(r.body).ids.length);
  t.same(lists, [5, 3, 1], 'each further call asks for the ids the page before left out');
  t.same(jira.unhandled, []);
});

t.test('the fake refuses, in the OpenAPI document’s words, what the document does not offer', async (t) => {
  const { jira } = await fake(t);
  const headers = { authorization: `Basic ${Buffer.from(`${CREDS.email}:${CREDS.apiToken}`).toString('base64')}`, 'content-type': 'application/json' };
  let res = await fetch(`${jira.url}/rest/api/3/comment/list?startAt=2`, { method: 'POST', headers, body: JSON.stringify({ ids: [1] }) });
  t.equal(res.status, 400);
  t.match((await res.json()).errorMessages[0], /getCommentsByIds \(POST \/rest\/api\/3\/comment\/list\): query parameter "startAt" is not a parameter of this operation \(it takes: expand\)/);
  res = await fetch(`${jira.url}/rest/api/3/comment/list`, { method: 'POST', headers, body: JSON.stringify({ ids: ['10000'] }) });
  t.match((await res.json()).errorMessages[0], /body\.ids\[0\]: "10000" is not an integer/);
  res = await fetch(`${jira.url}/rest/api/3/search/jql`, { method: 'POST', headers, body: JSON.stringify({ jql: 'project = MSP', startAt: 50 }) });
  t.match((await res.json()).errorMessages[0], /field "startAt" is not a field of this object/, 'the enhanced search has no startAt');
  t.equal(takeViolations().length, 3, 'each recorded: a test making such a call fails');
});

t.test('429 answers are retried after Retry-After', async (t) => {
  const { jira, system } = await fake(t);
  jira.rateLimitNext(2, 1);
  const started = Date.now();
  const { key } = await system.createIssue({ summary: 'Rate limited', description: 'd', priority: 'P3', labels: [] });
  const elapsed = Date.now() - started;
  t.equal(key, 'MSP-1');
  t.ok(elapsed >= 2000, `waited Retry-After twice (${elapsed} ms)`);
  t.equal(jira.issues.size, 1, 'one issue');
  t.equal(jira.requests.filter((r) => r.path === '/rest/api/3/issue').length, 3);

  const waits: number[] = [];
  const impatient = jiraCloudTicketSystem({
    site: jira.url,
    email: CREDS.email,
    apiToken: CREDS.apiToken,
    project: 'MSP',
    issueType: 'Task',
    priorities: parsePriorityMap(''),
    maxRetries: 2,
    sleep: async (ms) => {
      waits.push(ms);
    },
  });
  jira.rateLimitNext(5, 7);
  await t.rejects(impatient.getIssue('MSP-1'), { name: 'JiraError', status: 429 }, 'gives up after maxRetries');
  t.same(waits, [7000, 7000]);

  // Without Retry-After, X-RateLimit-Reset (to the minute) says when to come back.
  waits.length = 0;
  jira.rateLimitNext(1, 100, { resetOnly: true });
  const found = await impatient.getIssue('MSP-1');
  t.equal(found?.key, 'MSP-1', 'answered after the wait');
  t.equal(waits.length, 1);
  // the reset is 40–100 s away once its seconds are cut off; the adapter caps a wait at 60 s
  t.ok(waits[0] >= 39_000 && waits[0] <= 60_000, `waited until X-RateLimit-Reset (${waits[0]} ms)`);
});

t.test('the sync job writes tickets to Jira once, even when retried', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cc-attach-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const app = await build(t, { config: { ATTACHMENT_DIR: dir, JIRA_WEBHOOK_SECRET: 'hook-secret' } });
  const { jira, system } = await fake(t);
  // no second look within the run: the job fails, and the queue's retry must find the issue
  const deps = { pool: app.env.pool, system, store: localAttachmentStore({ dir, secret: 'unused' }), createRecheckMs: [] };
  const [alice, admin] = await Promise.all([login(app, 'alice@acme.example'), login(app, 'admin@commandcenter.local')]);
  const file = await upload(app, alice, 'shot.png', PNG);
  const ticket = await raise(app, alice, 'acme-corp', { attachments: [file.name] });
  await app.inject({ method: 'POST', url: `/v1/jira/msp_tickets/${ticket.id}/comment`, headers: bearer(alice), payload: { message: 'More detail' } });

  // Jira creates the issue but the answer is lost: the job fails, and its retry must not create a second issue
  jira.indexLag(400);
  jira.loseNextCreateAnswer();
  await t.rejects(syncTicket(deps, ticket.id), /answered 502/);
  t.equal(jira.issues.size, 1);
  // at once, search does not show the new issue yet: the retry reads it by key instead of creating a second one
  const first = await syncTicket(deps, ticket.id);
  t.match(first, { key: 'MSP-1', created: false, comments: 1, attachments: 1 });
  t.equal(jira.issues.size, 1, 'found again by its label, not created twice');
  t.ok(jira.issues.get('MSP-1')!.fields.labels.includes(`cc-${ticket.id}`));
  t.match(await syncTicket(deps, ticket.id), { created: false, comments: 0, attachments: 0, fields: false }, 'a second run changes nothing');
  t.equal(jira.issues.get('MSP-1')!.comments.length, 1);
  t.equal(jira.issues.get('MSP-1')!.attachments.length, 1);
  t.ok(jira.issues.get('MSP-1')!.attachments[0].content.equals(PNG));

  const view = async () => (await app.inject({ method: 'GET', url: `/v1/jira/msp_tickets/MSP-1`, headers: bearer(alice) })).json();
  t.match(await view(), { id: ticket.id, jira_issue_key: 'MSP-1', sync_state: 'synced' }, 'the Jira key finds the ticket');

  await app.inject({ method: 'PATCH', url: `/v1/jira/msp_tickets/MSP-1/status`, headers: bearer(admin), payload: { name: 'In Progress', comment_body: 'Working on it' } });
  await app.inject({ method: 'PATCH', url: `/v1/jira/msp_tickets/MSP-1/priority`, headers: bearer(alice), payload: { priority: { name: 'P1' }, comment_body: 'Now urgent' } });
  t.match(await view(), { sync_state: 'pending' });
  t.match(await syncTicket(deps, ticket.id), { comments: 2, fields: true });
  const issue = jira.issues.get('MSP-1')!;
  t.same([issue.fields.status.name, issue.fields.priority.name], ['In Progress', 'Highest']);
  t.equal(issue.comments.length, 3);
  t.match(await view(), { sync_state: 'synced' });

  // an engineer answers and resolves in Jira; the pull brings it back. The pull searches, and the search index shows
  // MSP-1 only 400 ms after its creation (indexLag above): on a fast machine everything so far takes less than that.
  await new Promise((r) => setTimeout(r, 500));
  jira.engineerComment('MSP-1', 'Disk extended to 500 GB');
  jira.engineerSet('MSP-1', { status: 'Resolved', assignee: 'Erin Engineer' });
  const pulled = await pullChanges(deps);
  t.match(pulled, { issues: 1, comments: 1 });
  t.match(await view(), { status: 'Resolved', assignee: 'Erin Engineer' });
  const comments = (await app.inject({ method: 'GET', url: `/v1/jira/msp_tickets/MSP-1/comment`, headers: bearer(alice) })).json();
  t.match(comments[0], { message: 'Disk extended to 500 GB', author: 'Erin Engineer' });
  t.equal(comments.length, 4, 'portal comments are not pulled back as copies');
  t.match(await pullChanges(deps), { comments: 0 }, 'pulling again adds nothing');

  // the webhook: shared secret checked, then a pull of the named issue is queued
  const payload = JSON.stringify({ webhookEvent: 'jira:issue_updated', issue: { id: issue.id, key: 'MSP-1', fields: { status: { name: 'Closed' } } } });
  const sign = (body: string, secret = 'hook-secret') => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
  const hook = (signature: string | undefined, id = 'delivery-1') =>
    app.inject({
      method: 'POST',
      url: '/v1/jira/webhook',
      payload,
      headers: { 'content-type': 'application/json', 'x-atlassian-webhook-identifier': id, ...(signature ? { 'x-hub-signature': signature } : {}) },
    });
  t.equal((await hook(undefined)).statusCode, 403, 'unsigned');
  t.equal((await hook(sign(payload, 'wrong'))).statusCode, 403, 'wrong secret');
  t.equal((await hook(sign(`${payload} `))).statusCode, 403, 'signature of another body');
  const ok = await hook(sign(payload));
  t.equal(ok.statusCode, 202);
  t.same(ok.json(), { accepted: true });
  t.same((await hook(sign(payload))).json(), { accepted: false }, 'a retried delivery is taken once');
  const job = await app.producers.queues['ticket-sync'].getJob('ticket-pull-issue-MSP-1-delivery-1');
  t.same(job?.data, { op: 'pull-issue', jira_key: 'MSP-1', ref: 'delivery-1' });
  // a deleted attachment leaves Jira and the attachment store
  const current = await view();
  const attachment = current.attachments[0];
  const stored = (await app.env.pool.query('SELECT stored_name FROM ticket_attachment WHERE id = $1', [attachment.id])).rows[0].stored_name;
  t.ok(await deps.store.get(stored));
  const del = await app.inject({ method: 'DELETE', url: `/v1/jira/msp_tickets/MSP-1/attachment/${attachment.id}`, headers: bearer(alice) });
  t.equal(del.statusCode, 200);
  t.match(await syncTicket(deps, ticket.id), { attachments: 1 });
  t.equal(jira.issues.get('MSP-1')!.attachments.length, 0);
  t.equal(await deps.store.get(stored), null);

  jira.engineerSet('MSP-1', { status: 'Closed' });
  await pullIssue(deps, 'MSP-1');
  t.match(await view(), { status: 'Closed' });

  // uploads never attached are dropped a day after their URL expired
  const abandoned = await upload(app, alice, 'forgotten.png', PNG);
  const kept = await upload(app, alice, 'recent.png', PNG);
  await app.env.pool.query(`UPDATE ticket_upload SET expires_at = now() - interval '2 days' WHERE generated_name = $1`, [abandoned.name]);
  t.match(await pullChanges(deps), { uploads_dropped: 1 });
  t.equal(await deps.store.get(abandoned.name), null);
  t.ok(await deps.store.get(kept.name), 'a recent upload stays');
  t.same(jira.unhandled, []);
});

t.test('a lost create answer behind a lagging search index still makes one issue', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cc-attach-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const app = await build(t, { config: { ATTACHMENT_DIR: dir } });
  const { jira, system } = await fake(t);
  const alice = await login(app, 'alice@acme.example');
  const ticket = await raise(app, alice, 'acme-corp');
  jira.indexLag(700);
  jira.loseNextCreateAnswer();
  const deps = { pool: app.env.pool, system, store: localAttachmentStore({ dir, secret: 'unused' }), createRecheckMs: [200, 1000] };
  t.match(await syncTicket(deps, ticket.id), { key: 'MSP-1', created: false }, 'found again once the index caught up');
  // what an immediate retry of a failed run would have done: a search right after the create misses the new issue
  t.match(await syncTicket(deps, ticket.id), { key: 'MSP-1', created: false });
  t.equal(jira.issues.size, 1, 'one issue');

  // a refusal (4xx) created nothing: it fails at once, without the pauses
  const misconfigured = jiraCloudTicketSystem({ site: jira.url, email: CREDS.email, apiToken: CREDS.apiToken, project: 'MSP', issueType: 'Task', priorities: parsePriorityMap('P2=Urgent') });
  const refused = await raise(app, alice, 'acme-corp');
  const started = Date.now();
  await t.rejects(syncTicket({ ...deps, system: misconfigured, createRecheckMs: [5000] }, refused.id), /answered 400/);
  t.ok(Date.now() - started < 4000, 'no pause after a refusal');
  t.equal(jira.issues.size, 1);
  t.same(jira.unhandled, []);
});
