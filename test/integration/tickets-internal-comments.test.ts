/**
 * Comments Jira keeps from the customer stay out of the portal: a Jira Service Management internal note
 * (`jsdPublic: false`) and a comment restricted to a project role or group (`visibility`). They are not stored, so
 * neither the customer nor the admin sees them through the ticket routes (the admin reads them in Jira); they notify no
 * channel and are not the ticket's first response. A public engineer's comment beside them is pulled, notified and
 * counted as before. A comment pulled while public and restricted later leaves the portal on the next pull, and the
 * first response falls back to what is left. The portal's own comments are created public.
 * Jira is the fake validated against Atlassian's OpenAPI document.
 */
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeJira } from '../fakes/jira-server.ts';
import { takeViolations } from '../fakes/spec-violations.ts';
import { jiraCloudTicketSystem, parsePriorityMap } from '@cc/shared/adapters/jira/real.ts';
import { localAttachmentStore } from '@cc/shared/adapters/attachment-store/local.ts';
import { durableEnqueue } from '@cc/shared/outbox.ts';
import { pullIssue, syncTicket, type TicketSyncDeps } from '../../workers/src/tickets/sync.ts';
import { build, login, bearer } from '../helper.ts';
import { raise } from '../fakes/tickets-client.ts';

const CREDS = { email: 'portal@msp.example', apiToken: 'token-123', project: 'MSP' };

t.test('internal notes and restricted comments never reach the customer; a public one beside them does', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cc-attach-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const app = await build(t, { config: { ATTACHMENT_DIR: dir } });
  const { pool, config } = app.env;
  const jira = await startFakeJira(CREDS);
  t.teardown(() => jira.close());
  const system = jiraCloudTicketSystem({
    site: jira.url,
    email: CREDS.email,
    apiToken: CREDS.apiToken,
    project: CREDS.project,
    issueType: 'Task',
    priorities: parsePriorityMap('P1=Highest,P2=High,P3=Medium,P4=Low'),
    pageSize: 50,
  });
  const deps: TicketSyncDeps = {
    pool,
    system,
    store: localAttachmentStore({ dir, secret: 'unused' }),
    createRecheckMs: [],
    notices: { enqueue: durableEnqueue(pool, app.producers), publicUrl: config.PUBLIC_URL },
  };

  const [alice, admin] = await Promise.all([login(app, 'alice@acme.example'), login(app, 'admin@commandcenter.local')]);
  const created = await app.inject({
    method: 'POST',
    url: '/v1/customers/acme-corp/channels/',
    headers: bearer(alice),
    payload: { kind: 'webhook', name: 'Support hook', url: 'http://127.0.0.1:9/hook', events: ['ticket.commented'] },
  });
  t.equal(created.statusCode, 201);
  const channelId = (created.json() as { channel: { id: string } }).channel.id;
  const events = async () =>
    (await pool.query<{ event_key: string }>('SELECT event_key FROM channel_delivery WHERE channel_id = $1 ORDER BY created_at', [channelId])).rows.map((r) => r.event_key);

  const ticket = await raise(app, alice, 'acme-corp', { summary: 'VPN tunnel flaps' });
  t.equal(ticket.status, 201);
  t.match(await syncTicket(deps, ticket.id), { created: true });
  const key = (await pool.query<{ jira_key: string }>('SELECT jira_key FROM ticket WHERE id = $1', [ticket.id])).rows[0].jira_key;

  // a portal comment goes to Jira public: no restriction asked for, and Jira answers it as public
  const portal = await app.inject({ method: 'POST', url: `/v1/jira/msp_tickets/${ticket.id}/comment`, headers: bearer(alice), payload: { message: 'Still down here' } });
  t.equal(portal.statusCode, 201);
  await syncTicket(deps, ticket.id);
  const posted = jira.requests.filter((r) => r.method === 'POST' && r.path === `/rest/api/3/issue/${key}/comment`);
  t.equal(posted.length, 1);
  t.notOk('visibility' in (JSON.parse(posted[0].body) as object), 'the portal asks for no restriction');
  const there = await system.listComments(key);
  t.same(there.map((c) => [c.body, c.internal]), [['alice@acme.example wrote:\nStill down here', false]], 'and Jira has it public');

  const start = Date.now() - 10 * 60_000;
  const minute = (m: number) => new Date(start + m * 60_000);
  jira.internalNote(key, 'Customer’s firewall is misconfigured again, bill them', minute(1));
  jira.restrictedComment(key, 'Escalated to the network team', { type: 'role', value: 'Administrators' }, minute(2));
  jira.restrictedComment(key, 'Known issue in the vendor firmware', { type: 'group', value: 'msp-engineers', identifier: '5b10a2844c20165700ede21g' }, minute(3));

  t.match(await pullIssue(deps, key), { comments: 0 }, 'the internal ones are not pulled');
  const read = async (token: string) => {
    const res = await app.inject({ method: 'GET', url: `/v1/jira/msp_tickets/${ticket.id}/comment`, headers: bearer(token) });
    t.equal(res.statusCode, 200);
    return (res.json() as { message: string }[]).map((c) => c.message).sort();
  };
  const firstResponse = async () => {
    const res = await app.inject({ method: 'GET', url: `/v1/jira/msp_tickets/${ticket.id}`, headers: bearer(alice) });
    return (res.json() as { first_response_date: string | null }).first_response_date;
  };
  t.same(await read(alice), ['Still down here'], 'the customer sees none of them');
  t.same(await read(admin), ['Still down here'], 'nor does the admin in the portal: they are read in Jira');
  t.equal(await firstResponse(), null, 'an internal note is not a response to the customer');
  t.same(await events(), [], 'no channel hears of them');

  const answer = jira.engineerComment(key, 'The tunnel’s rekey interval was too short; fixed', minute(4));
  t.match(await pullIssue(deps, key), { comments: 1 });
  t.same(await read(alice), ['Still down here', 'The tunnel’s rekey interval was too short; fixed']);
  t.same(await read(admin), ['Still down here', 'The tunnel’s rekey interval was too short; fixed']);
  t.equal(await firstResponse(), minute(4).toISOString(), 'the public answer is the first response');
  const { rows: [stored] } = await pool.query<{ id: string }>('SELECT id::text FROM ticket_comment WHERE jira_comment_id = $1', [answer.id]);
  t.same(await events(), [`ticket-comment-${stored.id}`], 'one notice, the public answer’s');

  const followUp = jira.engineerComment(key, 'Monitoring it for a day', minute(5));
  t.match(await pullIssue(deps, key), { comments: 1 });
  t.equal(await firstResponse(), minute(4).toISOString(), 'still the earlier answer');
  const { rows: [second] } = await pool.query<{ id: string }>('SELECT id::text FROM ticket_comment WHERE jira_comment_id = $1', [followUp.id]);
  const notices = [`ticket-comment-${stored.id}`, `ticket-comment-${second.id}`];
  t.same(await events(), notices);

  // the engineer restricts the first answer afterwards: it leaves the portal, and the follow-up is the first response
  answer.visibility = { type: 'role', value: 'Administrators' };
  t.match(await pullIssue(deps, key), { comments: 0, withdrawn: 1 });
  t.same(await read(alice), ['Monitoring it for a day', 'Still down here']);
  t.equal(await firstResponse(), minute(5).toISOString(), 'the earliest public answer left');
  // and makes the follow-up an internal note: nothing answers the customer any more
  followUp.jsdPublic = false;
  t.match(await pullIssue(deps, key), { comments: 0, withdrawn: 1 });
  t.same(await read(alice), ['Still down here']);
  t.same(await read(admin), ['Still down here']);
  t.equal(await firstResponse(), null, 'unanswered again');
  t.same(await pullIssue(deps, key), { ticket: ticket.id, comments: 0 }, 'a later pull changes nothing');
  t.same(await read(alice), ['Still down here']);
  t.same(await events(), notices, 'no further notice');

  t.same(jira.unhandled, []);
  t.same(takeViolations(), [], 'every Jira call and answer as Atlassian’s OpenAPI document has it');
});
