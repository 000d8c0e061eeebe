import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { payloadError, SCHEDULES } from '@cc/shared/queues.ts';
import { localAttachmentStore } from '@cc/shared/adapters/attachment-store/local.ts';
import { startLocalSmtpServer } from '@cc/shared/adapters/mail/local-smtp-server.ts';
import { smtpMailer } from '@cc/shared/adapters/mail/smtp-mailer.ts';
import { buildHandlers } from '../../workers/src/handlers.ts';
import { startWorkers } from '../../workers/src/worker-host.ts';
import { localTicketSystem } from '@cc/shared/adapters/jira/local.ts';
import { build, login, bearer } from '../helper.ts';
import { REDIS_URL } from '../db.ts';
import { raise, upload } from '../fakes/tickets-client.ts';
import { PDF } from '../fakes/files.ts';

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

t.test('the scheduled pull payload is valid', async (t) => {
  const s = SCHEDULES.find((x) => x.id === 'ticket-sync-pull')!;
  t.same(s.data, { op: 'pull' });
  t.equal(payloadError('ticket-sync', s.data), null);
  t.match(payloadError('ticket-sync', { op: 'explode' }), /op/);
});

t.test('through the queues: the local ticket system gets the ticket once, and the notify list an e-mail', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cc-attach-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const app = await build(t, { config: { ATTACHMENT_DIR: dir } });
  const { pool, config } = app.env;
  const smtp = await startLocalSmtpServer(pool, 0);
  t.teardown(() => smtp.close());
  const mailer = smtpMailer(`smtp://127.0.0.1:${smtp.port}`, config.MAIL_FROM);
  const host = await startWorkers({
    redisUrl: REDIS_URL,
    prefix: config.QUEUE_PREFIX,
    queues: ['ticket-sync', 'notify'],
    handlers: buildHandlers(['ticket-sync', 'notify'], {
      pool,
      enqueue: app.producers.enqueue,
      publicUrl: config.PUBLIC_URL,
      mailer,
      mailDomain: 'commandcenter.test',
      ticketSystem: localTicketSystem(pool, { project: 'MSP' }),
      attachmentStore: localAttachmentStore({ dir, secret: 'unused' }),
    }),
  });
  t.teardown(() => host.close());

  const alice = await login(app, 'alice@acme.example');
  const file = await upload(app, alice, 'report.pdf', PDF);
  const ticket = await raise(app, alice, 'acme-corp', { attachments: [file.name], summary: 'VPN tunnel flaps' });
  t.equal(ticket.status, 201);

  const key = await until('the issue key', async () => (await pool.query('SELECT jira_key FROM ticket WHERE id = $1', [ticket.id])).rows[0]?.jira_key as string | null);
  t.match(key, /^MSP-\d+$/);
  const synced = await until('the attachment in the ticket system', async () => {
    const { rows } = await pool.query(
      `SELECT i.summary, i.labels, (SELECT count(*)::int FROM local_issue_attachment a WHERE a.issue_id = i.id) AS files FROM local_issue i WHERE i.key = $1`,
      [key],
    );
    return rows[0]?.files === 1 ? rows[0] : null;
  });
  t.equal(synced.summary, 'VPN tunnel flaps');
  t.ok(synced.labels.includes(`cc-${ticket.id}`));

  // the same create command again (a retried request or a duplicate enqueue): still one issue
  await app.producers.enqueue('ticket-sync', 'ticket.sync', { op: 'create', ticket_id: ticket.id });
  await app.producers.enqueue('ticket-sync', 'ticket.sync', { op: 'pull' });
  await new Promise((r) => setTimeout(r, 1500));
  t.equal((await pool.query('SELECT count(*)::int AS n FROM local_issue')).rows[0].n, 1);

  const mail = await until('the new-ticket e-mail', async () => {
    const { rows } = await pool.query(`SELECT * FROM mail_message WHERE 'alice@acme.example' = ANY(rcpt_to)`);
    return rows[0];
  });
  t.match(mail.subject, /New support ticket for Acme Corp: VPN tunnel flaps/);
  t.match(mail.text_body, new RegExp(`/supportrequest/view/${ticket.id}`));
  t.match(mail.text_body, /Priority: P2/);

  const view = (await app.inject({ method: 'GET', url: `/v1/jira/msp_tickets/${key}`, headers: bearer(alice) })).json();
  t.match(view, { id: ticket.id, jira_issue_key: key, sync_state: 'synced' });
});
