import t from 'tap';
import { startLocalSmtpServer } from '@cc/shared/adapters/mail/local-smtp-server.ts';
import { smtpMailer } from '@cc/shared/adapters/mail/smtp-mailer.ts';
import { buildHandlers } from '../../workers/src/handlers.ts';
import { startWorkers } from '../../workers/src/worker-host.ts';
import { build, login, bearer } from '../helper.ts';
import { REDIS_URL } from '../db.ts';
import { jobOutcomes } from '../job-outcomes.ts';

t.test('notify queue delivers e-mail over real SMTP, once per key', async (t) => {
  const app = await build(t);
  const { pool, config } = app.env;
  const smtp = await startLocalSmtpServer(pool, 0);
  t.teardown(() => smtp.close());
  const mailer = smtpMailer(`smtp://127.0.0.1:${smtp.port}`, config.MAIL_FROM);
  const host = await startWorkers({
    redisUrl: REDIS_URL,
    prefix: config.QUEUE_PREFIX,
    queues: ['notify'],
    handlers: buildHandlers(['notify'], { pool, mailer, mailDomain: 'commandcenter.test' }),
  });
  t.teardown(() => host.close());
  const finished = await jobOutcomes(t, 'notify', { redisUrl: REDIS_URL, prefix: config.QUEUE_PREFIX });

  const command = {
    to: ['alice@acme.example', 'bob@initech.example'],
    subject: 'Spend alert for Acme Corp',
    text: 'Month-to-date spend 1,234.56 EUR exceeds the quota of 1,000.00 EUR.',
    html: '<p>Month-to-date spend <b>1,234.56 EUR</b> exceeds the quota of 1,000.00 EUR.</p>',
    key: 'test-alert-1-2026-11',
  };
  const jobId = await app.producers.enqueue('notify', 'notify.send', command);
  t.equal(jobId, 'notify-test-alert-1-2026-11');
  const result = await finished(jobId, 15000);
  t.same(result, { accepted: ['alice@acme.example', 'bob@initech.example'] });

  const admin = await login(app, 'admin@commandcenter.local');
  const inbox = await app.inject({ method: 'GET', url: '/v1/ops/mail', query: { to: 'bob@initech.example' }, headers: bearer(admin) });
  t.equal(inbox.statusCode, 200);
  const [mail, ...rest] = inbox.json().messages;
  t.equal(rest.length, 0);
  t.same(mail.rcpt_to, ['alice@acme.example', 'bob@initech.example']);
  t.equal(mail.subject, 'Spend alert for Acme Corp');
  t.equal(mail.text_body.trim(), command.text);
  t.match(mail.html_body, /<b>1,234.56 EUR<\/b>/);
  const intent = (await pool.query("SELECT id::text, attempts, sent_at FROM mail_intent WHERE key = 'test-alert-1-2026-11'")).rows[0];
  t.equal(mail.message_id, `<cc-mail-${intent.id}@commandcenter.test>`, 'the Message-ID comes from the recorded intent, not from the key');
  t.equal(intent.attempts, 1);
  t.ok(intent.sent_at, 'marked sent after the 250');
  t.match(mail.mail_from, /no-reply@commandcenter.local/);

  // The same notice again (completed jobs are removed, so BullMQ would run it): still one e-mail.
  const again = await app.producers.enqueue('notify', 'notify.send', command);
  const second = await finished(again, 15000);
  t.same(second, { skipped: 'already sent' });
  const { rows } = await pool.query('SELECT count(*)::int AS n FROM mail_message');
  t.equal(rows[0].n, 1);

  const customer = await login(app, 'alice@acme.example');
  const refused = await app.inject({ method: 'GET', url: '/v1/ops/mail', headers: bearer(customer) });
  t.equal(refused.statusCode, 403);
});

t.test('a bad payload fails at once without retries', async (t) => {
  const app = await build(t, { seed: false });
  const { pool, config } = app.env;
  const host = await startWorkers({
    redisUrl: REDIS_URL,
    prefix: config.QUEUE_PREFIX,
    queues: ['notify'],
    handlers: buildHandlers(['notify'], { pool, mailer: smtpMailer('smtp://127.0.0.1:9', config.MAIL_FROM), mailDomain: 'x.test' }),
  });
  t.teardown(() => host.close());
  const finished = await jobOutcomes(t, 'notify', { redisUrl: REDIS_URL, prefix: config.QUEUE_PREFIX });
  const job = await app.producers.queues.notify.add('notify.send', { to: ['not-an-email'], subject: 's', text: 't', key: 'k' }, { attempts: 5 });
  await t.rejects(finished(job.id!, 15000), /bad notify payload: \/to\/0/);
  const failed = await app.producers.queues.notify.getJob(job.id!);
  t.equal(failed!.attemptsMade, 1);
});
