/**
 * Comments an engineer writes in Jira reach the customer's notification channels ("Ticket commented by the
 * provider") as an admin's comment made in the portal does: through the outbox and the notify-channel queue, once per
 * comment and channel however many syncs pull it (at once or again), never for the portal's own comments coming back
 * from Jira, nor for comments by the customer's own users. Jira is the fake validated against Atlassian's OpenAPI
 * document; the receiver on 127.0.0.1 checks our documented signature with code written here.
 */
import t from 'tap';
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeJira } from '../fakes/jira-server.ts';
import { takeViolations } from '../fakes/spec-violations.ts';
import { jiraCloudTicketSystem, parsePriorityMap } from '@cc/shared/adapters/jira/real.ts';
import { localAttachmentStore } from '@cc/shared/adapters/attachment-store/local.ts';
import { durableEnqueue } from '@cc/shared/outbox.ts';
import { secretBoxFromConfig } from '@cc/shared/secrets-key.ts';
import { pullChanges, pullIssue, type TicketSyncDeps } from '../../workers/src/tickets/sync.ts';
import { buildHandlers } from '../../workers/src/handlers.ts';
import { startWorkers } from '../../workers/src/worker-host.ts';
import { build, login, bearer } from '../helper.ts';
import { REDIS_URL } from '../db.ts';
import { waitFor } from '../faults.ts';
import { raise } from '../fakes/tickets-client.ts';

const CREDS = { email: 'portal@msp.example', apiToken: 'token-123', project: 'MSP' };

interface Received {
  headers: IncomingMessage['headers'];
  raw: string;
}

interface Notice {
  id: string;
  type: string;
  timestamp: number;
  customer_id: string;
  title: string;
  text: string;
  link: string;
  data: { ticket_id: string; jira_key: string | null; comment_id: string; author: string };
}

t.test('comments written in Jira notify the channels once, the portal’s own and the customer’s not', async (t) => {
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
    satisfactionField: 'customfield_10050',
    pageSize: 50,
  });
  const store = localAttachmentStore({ dir, secret: 'unused' });

  const got: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ headers: req.headers, raw: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`;

  // two worker processes' worth of ticket sync beside the channel deliveries, as a deployment runs them
  const workerDeps = {
    pool,
    ticketSystem: system,
    attachmentStore: store,
    enqueue: app.producers.enqueue,
    publicUrl: config.PUBLIC_URL,
    secretBox: secretBoxFromConfig(config),
    channelSendPolicy: { production: false },
  };
  for (let i = 0; i < 2; i++) {
    const host = await startWorkers({
      redisUrl: REDIS_URL,
      prefix: config.QUEUE_PREFIX,
      queues: ['ticket-sync', 'notify-channel'],
      handlers: buildHandlers(['ticket-sync', 'notify-channel'], workerDeps),
    });
    t.teardown(() => host.close());
  }

  const [alice, admin] = await Promise.all([login(app, 'alice@acme.example'), login(app, 'admin@commandcenter.local')]);
  const created = await app.inject({
    method: 'POST',
    url: '/v1/customers/acme-corp/channels/',
    headers: bearer(alice),
    payload: { kind: 'webhook', name: 'Support hook', url, events: ['ticket.commented'] },
  });
  t.equal(created.statusCode, 201);
  const { channel, secret } = created.json() as { channel: { id: string }; secret: string };

  const ticket = await raise(app, alice, 'acme-corp', { summary: 'VPN tunnel flaps' });
  t.equal(ticket.status, 201);
  await waitFor('the issue in Jira', async () => (await pool.query('SELECT jira_key FROM ticket WHERE id = $1', [ticket.id])).rows[0]?.jira_key, 30_000);
  const key = (await pool.query<{ jira_key: string }>('SELECT jira_key FROM ticket WHERE id = $1', [ticket.id])).rows[0].jira_key;
  t.equal(key, 'MSP-1');

  // an admin answers in the portal (one notice, as before), a customer in the portal (none); both go to Jira
  const portal = await app.inject({ method: 'POST', url: `/v1/jira/msp_tickets/${ticket.id}/comment`, headers: bearer(admin), payload: { message: 'Looking into it' } });
  t.equal(portal.statusCode, 201);
  await app.inject({ method: 'POST', url: `/v1/jira/msp_tickets/${ticket.id}/comment`, headers: bearer(alice), payload: { message: 'Still down here' } });
  await waitFor('the portal comments in Jira', async () => jira.issues.get(key)!.comments.length === 2, 30_000);

  // written in Jira: an engineer (an Atlassian account), a service desk customer, and alice with an Atlassian account
  // of her own (her e-mail is one of the customer's users)
  jira.engineerComment(key, 'The tunnel’s rekey interval was too short; fixed');
  jira.customerComment(key, 'Thanks, it holds now', { email: 'alice@acme.example', displayName: 'Alice (portal customer)' });
  jira.customerComment(key, 'Confirmed from our side', { email: 'Victor@acme.example', displayName: 'Victor', accountType: 'atlassian' });

  // pulled by two runs at once on separate connections, by the queue's jobs on two workers, and again after
  const deps: TicketSyncDeps = { pool, system, store, createRecheckMs: [], notices: { enqueue: durableEnqueue(pool, app.producers), publicUrl: config.PUBLIC_URL } };
  const jobs = ['a', 'b'].map((n) => app.producers.queues['ticket-sync'].add('ticket.sync', { op: 'pull-issue', jira_key: key }, { jobId: `pull-${n}-${key}` }));
  const runs = await Promise.all([pullIssue(deps, key), pullIssue(deps, key), pullChanges(deps)]);
  await Promise.all(jobs);
  const inserted = runs.reduce((n, r) => n + ('comments' in r ? r.comments : 0), 0);
  t.ok(inserted <= 3, `the concurrent runs inserted each Jira comment at most once (${inserted})`);
  await waitFor('both pull jobs', async () => {
    const counts = await app.producers.queues['ticket-sync'].getJobCounts('waiting', 'active', 'delayed');
    return counts.waiting + counts.active + counts.delayed === 0;
  }, 30_000);
  t.match(await pullIssue(deps, key), { comments: 0 }, 'a later run adds nothing');

  const { rows: comments } = await pool.query<{ message: string; author: string; by_provider: boolean; jira_comment_id: string | null }>(
    'SELECT message, author, by_provider, jira_comment_id FROM ticket_comment WHERE ticket_id = $1 ORDER BY message',
    [ticket.id],
  );
  t.same(
    comments.map((c) => [c.message, c.by_provider]),
    [
      ['Confirmed from our side', false],
      ['Looking into it', true],
      ['Still down here', false],
      ['Thanks, it holds now', false],
      ['The tunnel’s rekey interval was too short; fixed', true],
    ],
    'each Jira comment stored once; the customer’s own are not the provider’s',
  );

  const delivered = () => pool.query<{ n: number }>('SELECT count(*)::int AS n FROM channel_delivery WHERE channel_id = $1 AND delivered_at IS NOT NULL', [channel.id]);
  await waitFor('two deliveries', async () => (await delivered()).rows[0].n >= 2, 30_000);
  // time for a duplicate to arrive if one had been recorded or published twice
  await new Promise((r) => setTimeout(r, 1500));
  const { rows: rowsOfChannel } = await pool.query<{ event_key: string; n: number }>(
    'SELECT event_key, count(*)::int AS n FROM channel_delivery WHERE channel_id = $1 GROUP BY event_key ORDER BY min(created_at)',
    [channel.id],
  );
  t.equal(rowsOfChannel.length, 2, 'two events recorded for the channel: the admin’s portal comment and the engineer’s');
  t.ok(rowsOfChannel.every((r) => r.n === 1));
  t.equal(got.length, 2, 'two requests reached the receiver');

  const notices = got.map((r) => {
    const expected = `sha256=${createHmac('sha256', secret).update(r.raw).digest('hex')}`;
    t.equal(r.headers['x-commandcenter-signature'], expected, 'signed as documented');
    const body = JSON.parse(r.raw) as Notice;
    t.equal(r.headers['x-commandcenter-delivery'], body.id);
    t.equal(r.headers['x-commandcenter-timestamp'], String(body.timestamp));
    return body;
  });
  t.same(new Set(notices.map((n) => n.id)).size, 2, 'two distinct delivery ids');
  const byAuthor = new Map(notices.map((n) => [n.data.author, n]));
  t.same([...byAuthor.keys()].sort(), ['Erin Engineer', 'admin@commandcenter.local'], 'the admin’s portal comment (once: not again when it came back from Jira) and the engineer’s');
  const engineer = byAuthor.get('Erin Engineer')!;
  const stored = comments.find((c) => c.author === 'Erin Engineer')!;
  t.match(engineer, {
    type: 'ticket.commented',
    customer_id: 'acme-corp',
    title: 'New comment on ticket MSP-1',
    text: 'Erin Engineer commented on "VPN tunnel flaps":\n\nThe tunnel’s rekey interval was too short; fixed',
    link: `${config.PUBLIC_URL.replace(/\/+$/, '')}/supportrequest/view/${ticket.id}`,
    data: { ticket_id: ticket.id, jira_key: 'MSP-1', author: 'Erin Engineer' },
  });
  const { rows: [engineerRow] } = await pool.query<{ id: string }>('SELECT id::text FROM ticket_comment WHERE jira_comment_id = $1', [stored.jira_comment_id]);
  t.equal(engineer.data.comment_id, engineerRow.id, 'the notice names the stored comment');

  // e-mail: a comment, from the portal or from Jira, sends none (spec 001: the notify list hears of new support requests)
  const { rows: mails } = await pool.query<{ key: string }>(`SELECT data->>'key' AS key FROM outbox WHERE queue = 'notify' ORDER BY id`);
  t.same(mails.map((m) => m.key), [`ticket-created-${ticket.id}`], 'only the new ticket’s e-mail');

  t.same(jira.unhandled, []);
  t.same(takeViolations(), [], 'every Jira call as Atlassian’s OpenAPI document has it');
});
