/**
 * What a real Jira Cloud does and an agreeable fake would hide: comment properties come only from the operations that
 * document them, and JQL search shows a new issue late unless it is named in `reconcileIssues`. The fake refuses the
 * rest (400), so these tests fail against an adapter that relies on anything else.
 */
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { takeViolations } from '../fakes/spec-violations.ts';
import { startFakeJira } from '../fakes/jira-server.ts';
import { jiraCloudTicketSystem, parsePriorityMap } from '@cc/shared/adapters/jira/real.ts';
import { pullChanges, syncTicket, type TicketSyncDeps } from '../../workers/src/tickets/sync.ts';
import { localAttachmentStore } from '@cc/shared/adapters/attachment-store/local.ts';
import { build, login, bearer } from '../helper.ts';
import { raise } from '../fakes/tickets-client.ts';

const CREDS = { email: 'portal@msp.example', apiToken: 'token-123', project: 'MSP', satisfactionField: 'customfield_10050' };
const AUTH = { authorization: `Basic ${Buffer.from(`${CREDS.email}:${CREDS.apiToken}`).toString('base64')}`, 'content-type': 'application/json' };

/** A Jira Cloud adapter as a worker process builds it (a new one stands for a restarted worker: nothing in memory). */
const adapter = (url: string) =>
  jiraCloudTicketSystem({
    site: url,
    email: CREDS.email,
    apiToken: CREDS.apiToken,
    project: 'MSP',
    issueType: 'Task',
    priorities: parsePriorityMap('P1=Highest,P2=High,P3=Medium,P4=Low'),
    satisfactionField: CREDS.satisfactionField,
  });

async function setup(t: { teardown(fn: () => unknown): void }) {
  const dir = mkdtempSync(join(tmpdir(), 'cc-attach-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const app = await build(t, { config: { ATTACHMENT_DIR: dir } });
  const jira = await startFakeJira(CREDS);
  t.teardown(() => jira.close());
  const deps: TicketSyncDeps = { pool: app.env.pool, system: adapter(jira.url), store: localAttachmentStore({ dir, secret: 'unused' }), createRecheckMs: [] };
  const [alice, admin] = await Promise.all([login(app, 'alice@acme.example'), login(app, 'admin@commandcenter.local')]);
  return { app, jira, deps, alice, admin };
}

t.test('the fake refuses what Jira documents nowhere, and lags its search index unless reconciled', async (t) => {
  const jira = await startFakeJira(CREDS);
  t.teardown(() => jira.close());
  jira.indexLag(60_000);
  const created = await (await fetch(`${jira.url}/rest/api/3/issue`, {
    method: 'POST',
    headers: AUTH,
    body: JSON.stringify({ fields: { project: { key: 'MSP' }, issuetype: { name: 'Task' }, summary: 'x', labels: ['cc-probe'] } }),
  })).json();
  const search = async (extra: Record<string, unknown>) =>
    fetch(`${jira.url}/rest/api/3/search/jql`, { method: 'POST', headers: AUTH, body: JSON.stringify({ jql: 'project = "MSP" AND labels = "cc-probe"', fields: ['labels'], ...extra }) });
  t.same((await (await search({})).json()).issues, [], 'a new issue is not searchable yet');
  t.same((await (await search({ reconcileIssues: [Number(created.id)] })).json()).issues.map((i: { key: string }) => i.key), ['MSP-1'], 'named in reconcileIssues: seen at once');
  t.equal((await search({ reconcileIssues: Array.from({ length: 51 }, (_, i) => i) })).status, 400, 'at most 50 ids');
  t.equal((await search({ consistent: true })).status, 400, 'an undocumented body field is refused');
  t.match(takeViolations(), [/field "consistent" is not a field of this object/], 'refused by the OpenAPI document, and recorded');

  await fetch(`${jira.url}/rest/api/3/issue/MSP-1/comment`, { method: 'POST', headers: AUTH, body: JSON.stringify({ body: { type: 'doc', version: 1, content: [] }, properties: [{ key: 'commandcenter', value: { id: 'c-1' } }] }) });
  const expanded = await fetch(`${jira.url}/rest/api/3/issue/MSP-1/comment?expand=properties`, { headers: AUTH });
  t.equal(expanded.status, 400, 'getComments does not expand properties');
  t.same(await expanded.json(), { errorMessages: ["The value 'properties' is not valid for the parameter 'expand' (valid: renderedBody)."], errors: {} }, "Jira's ErrorCollection");
  const comments = (await (await fetch(`${jira.url}/rest/api/3/issue/MSP-1/comment`, { headers: AUTH })).json()).comments;
  t.notOk('properties' in comments[0]);
  const byIds = await (await fetch(`${jira.url}/rest/api/3/comment/list?expand=properties`, { method: 'POST', headers: AUTH, body: JSON.stringify({ ids: [Number(comments[0].id)] }) })).json();
  t.match(byIds, { isLast: true, values: [{ id: comments[0].id, properties: [{ key: 'commandcenter', value: { id: 'c-1' } }] }] });
  const property = await (await fetch(`${jira.url}/rest/api/3/comment/${comments[0].id}/properties/commandcenter`, { headers: AUTH })).json();
  t.same(property, { key: 'commandcenter', value: { id: 'c-1' } });
  t.equal((await fetch(`${jira.url}/rest/api/3/comment/list`, { method: 'POST', headers: AUTH, body: JSON.stringify({ ids: [] }) })).status, 400, 'empty id list');
  t.same(jira.unhandled, []);
});

t.test('markers read the documented way: no satisfaction comment twice, no portal comment pulled back, no duplicate after a lost answer', async (t) => {
  const { app, jira, deps, alice, admin } = await setup(t);
  // about markers only: the pulls below must see the new issue (the index lag is the next test's subject)
  jira.indexLag(0);
  const ticket = await raise(app, alice, 'acme-corp');
  await app.inject({ method: 'POST', url: `/v1/jira/msp_tickets/${ticket.id}/comment`, headers: bearer(alice), payload: { message: 'More detail' } });
  t.match(await syncTicket(deps, ticket.id), { key: 'MSP-1', created: true, comments: 1 });

  // the answer to a comment post is lost after Jira stored it: the retry finds it by its marker
  await app.inject({ method: 'POST', url: `/v1/jira/msp_tickets/${ticket.id}/comment`, headers: bearer(alice), payload: { message: 'Still failing' } });
  jira.loseNextAnswer('POST', /\/comment$/);
  await t.rejects(syncTicket(deps, ticket.id), /answered 502/);
  t.match(await syncTicket(deps, ticket.id), { comments: 1 }, 'recorded on the retry');
  const texts = () => jira.issues.get('MSP-1')!.comments.map((c) => JSON.stringify(c.body));
  t.equal(texts().filter((x) => x.includes('Still failing')).length, 1, 'posted once');
  const reads = jira.requests.filter((r) => r.path.includes('/comment'));
  t.ok(reads.some((r) => r.method === 'POST' && r.path === '/rest/api/3/comment/list?expand=properties'), 'markers come from getCommentsByIds with expand=properties');
  t.notOk(reads.some((r) => r.method === 'GET' && r.path.includes('expand=')), 'getComments is asked for no expansion');

  // closed, rated: the satisfaction comment goes to Jira once, however often the ticket syncs
  const resolved = await app.inject({ method: 'PATCH', url: `/v1/jira/msp_tickets/MSP-1/status`, headers: bearer(admin), payload: { name: 'Resolved', comment_body: 'Done' } });
  t.equal(resolved.statusCode, 200, resolved.body);
  const closed = await app.inject({ method: 'PATCH', url: `/v1/jira/msp_tickets/MSP-1/status`, headers: bearer(alice), payload: { name: 'Closed', comment_body: 'Thanks' } });
  t.equal(closed.statusCode, 200, closed.body);
  const rated = await app.inject({ method: 'PATCH', url: `/v1/jira/msp_tickets/MSP-1/satisfaction`, headers: bearer(alice), payload: { score: 5, message: 'Quick fix' } });
  t.equal(rated.statusCode, 200, rated.body);
  for (let i = 0; i < 3; i++) await syncTicket(deps, ticket.id);
  await pullChanges(deps);
  t.equal(texts().filter((x) => x.includes('Customer satisfaction: 5')).length, 1, 'one satisfaction comment after four syncs and a pull');
  t.equal(jira.issues.get('MSP-1')!.fields.customfield_10050, 5);

  // an engineer answers: the pull imports that one comment, and none of the portal's own
  jira.engineerComment('MSP-1', 'Root cause: full WAL volume');
  const before = (await app.env.pool.query('SELECT count(*)::int AS n FROM ticket_comment WHERE ticket_id = $1', [ticket.id])).rows[0].n;
  t.match(await pullChanges(deps), { comments: 1 });
  t.match(await pullChanges(deps), { comments: 0 }, 'pulling again adds nothing');
  const { rows } = await app.env.pool.query('SELECT message, author, by_provider FROM ticket_comment WHERE ticket_id = $1 ORDER BY created_at', [ticket.id]);
  t.equal(rows.length, before + 1);
  t.same(rows.filter((r) => r.by_provider && r.author !== 'admin@commandcenter.local').map((r) => [r.message, r.author]), [['Root cause: full WAL volume', 'Erin Engineer']], 'only the engineer\'s comment came in from Jira');
  t.same(jira.unhandled, []);
});

t.test('a crash between create and record never makes a second issue', async (t) => {
  const { app, jira, deps, alice } = await setup(t);

  // 1. Jira answered, but recording the key failed (here: a constraint refuses the write): the worker retries with the
  // issue's id in reconcileIssues, so a search index a minute behind does not matter.
  jira.indexLag(60_000);
  const first = await raise(app, alice, 'acme-corp');
  const pool = app.env.pool;
  await pool.query(`ALTER TABLE ticket ADD CONSTRAINT test_no_key CHECK (jira_key IS NULL) NOT VALID`);
  await t.rejects(syncTicket(deps, first.id), /test_no_key/);
  await pool.query('ALTER TABLE ticket DROP CONSTRAINT test_no_key');
  t.equal(jira.issues.size, 1);
  t.match(await syncTicket(deps, first.id), { key: 'MSP-1', created: false }, 'found again at once');
  const search = jira.requests.filter((r) => r.path === '/rest/api/3/search/jql').map((r) => JSON.parse(r.body)).at(-1);
  t.same(search.reconcileIssues, [Number(jira.issues.get('MSP-1')!.id)], 'the new issue is named in reconcileIssues');
  t.equal(jira.issues.size, 1, 'one issue');

  // 2. The worker died before the answer arrived (here: the answer is lost and a new adapter, with nothing in memory,
  // retries): search cannot see the issue yet and nothing can name it in reconcileIssues; the sync reads the issues
  // numbered above the highest it had recorded, by key, and finds it.
  jira.indexLag(800);
  const second = await raise(app, alice, 'acme-corp');
  jira.loseNextCreateAnswer();
  await t.rejects(syncTicket(deps, second.id), /answered 502/);
  const restarted = { ...deps, system: adapter(jira.url) };
  t.match(await syncTicket(restarted, second.id), { key: 'MSP-2', created: false }, 'found by key while search cannot see it');
  t.equal(jira.issues.size, 2, 'no second issue for the same ticket');
  // Without the lookup by key the sync still waits for the index rather than create (the settle time).
  const third0 = await raise(app, alice, 'acme-corp');
  jira.loseNextCreateAnswer();
  await t.rejects(syncTicket(deps, third0.id), /answered 502/);
  const searchOnly = { ...restarted, system: { ...adapter(jira.url), findCreatedAfter: undefined } };
  await t.rejects(syncTicket(searchOnly, third0.id), { name: 'CreateNotSettled', message: /search does not show it yet/ });
  await new Promise((r) => setTimeout(r, 900));
  t.match(await syncTicket(searchOnly, third0.id), { created: false }, 'found once the index caught up');
  t.equal((await pool.query('SELECT jira_create_sent_at FROM ticket WHERE id = $1', [second.id])).rows[0].jira_create_sent_at, null, 'the uncertain create is settled');

  // 3. The index lags longer than the wait (15 minutes; the wait is cut to nothing): the lost issue is read by key
  // above the highest number recorded before its create (GET /issue/{key} does not use the index), not made again.
  jira.indexLag(15 * 60_000);
  const third = await raise(app, alice, 'acme-corp');
  jira.loseNextCreateAnswer();
  await t.rejects(syncTicket(deps, third.id), /answered 502/);
  const late = { ...deps, system: adapter(jira.url), createSettleMs: 0 };
  t.match(await syncTicket(late, third.id), { key: 'MSP-4', created: false }, 'found by key while search still cannot see it');
  t.equal([...jira.issues.values()].filter((i) => i.fields.labels.includes(`cc-${third.id}`)).length, 1, 'no second issue after the wait');

  // Control: the same situation with only the search and the wait makes the duplicate (so the test can fail).
  const fifth = await raise(app, alice, 'acme-corp');
  jira.loseNextCreateAnswer();
  await t.rejects(syncTicket(deps, fifth.id), /answered 502/);
  await syncTicket({ ...late, system: { ...adapter(jira.url), findCreatedAfter: undefined } }, fifth.id);
  t.equal([...jira.issues.values()].filter((i) => i.fields.labels.includes(`cc-${fifth.id}`)).length, 2, 'search alone: a second issue');
  jira.indexLag(800);

  // A refused create (4xx) made nothing: the next run creates at once.
  const fourth = await raise(app, alice, 'acme-corp');
  const refusing = jiraCloudTicketSystem({ site: jira.url, email: CREDS.email, apiToken: CREDS.apiToken, project: 'MSP', issueType: 'Task', priorities: parsePriorityMap('P2=Urgent') });
  await t.rejects(syncTicket({ ...deps, system: refusing }, fourth.id), /answered 400/);
  t.match(await syncTicket(deps, fourth.id), { created: true });
  t.same(jira.unhandled, []);
});
