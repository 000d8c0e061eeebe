/**
 * No secret in an identifier: the invitation token, which is the credential of the link, appears in the
 * e-mail's body only: not in the notify job's id or key, not in the Message-ID, not in a log line of the api or the
 * worker (pino output captured at trace level), not in /metrics.
 */
import t from 'tap';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { QueueEvents } from 'bullmq';
import { buildApp } from '../../api/src/app.ts';
import { startLocalSmtpServer } from '@cc/shared/adapters/mail/local-smtp-server.ts';
import { smtpMailer } from '@cc/shared/adapters/mail/smtp-mailer.ts';
import { buildHandlers } from '../../workers/src/handlers.ts';
import { startWorkers } from '../../workers/src/worker-host.ts';
import { testEnv, login, bearer } from '../helper.ts';
import { REDIS_URL } from '../db.ts';

/** Every line a logger writes, kept for the search at the end. */
function capture(): { stream: Writable; text: () => string } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { stream, text: () => lines.join('') };
}

t.test('the invitation token is in no job id, Message-ID, log line or metric', async (t) => {
  const env = await testEnv(t, { config: { LOG_LEVEL: 'trace' } });
  const apiLog = capture();
  const app = await buildApp(env.config, { logStream: apiLog.stream });
  t.teardown(() => app.close());
  await app.ready();
  const smtp = await startLocalSmtpServer(env.pool, 0);
  t.teardown(() => smtp.close());
  const workerLog = capture();
  const host = await startWorkers({
    redisUrl: REDIS_URL,
    prefix: env.config.QUEUE_PREFIX,
    queues: ['notify'],
    logger: pino({ level: 'trace' }, workerLog.stream),
    handlers: buildHandlers(['notify'], { pool: env.pool, mailer: smtpMailer(`smtp://127.0.0.1:${smtp.port}`, env.config.MAIL_FROM), mailDomain: 'commandcenter.test' }),
  });
  t.teardown(() => host.close());
  const events = new QueueEvents('notify', { connection: { url: REDIS_URL }, prefix: env.config.QUEUE_PREFIX });
  t.teardown(() => events.close());
  await events.waitUntilReady();

  const admin = bearer(await login(app, 'admin@commandcenter.local'));
  const invited = await app.inject({ method: 'POST', url: '/v1/users/', payload: { role: 'customer', emails: 'erin@initech.example', customers: ['initech'] }, headers: admin });
  t.equal(invited.statusCode, 201, invited.body);

  let mail: { message_id: string | null; text_body: string } | undefined;
  for (let i = 0; i < 150 && !mail; i++) {
    const r = await app.inject({ method: 'GET', url: '/v1/ops/mail', query: { to: 'erin@initech.example' }, headers: admin });
    mail = r.json().messages[0];
    if (!mail) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  t.ok(mail, 'the invitation was delivered');
  const token = /\/invitation\/([\w-]+)/.exec(mail!.text_body)![1]!;
  t.ok(token.length >= 40, 'the link carries the token');

  // Use the link as the user would, including a failing try, so every code path logs what it logs.
  t.equal((await app.inject({ method: 'GET', url: `/v1/invitations/${token}` })).statusCode, 200);
  t.equal((await app.inject({ method: 'POST', url: `/v1/invitations/${token}`, payload: { password: '123' } })).statusCode, 400);
  t.equal((await app.inject({ method: 'POST', url: `/v1/invitations/${token}`, payload: { password: 'erin-secret' } })).statusCode, 200);
  t.equal((await app.inject({ method: 'GET', url: `/v1/invitations/${token}` })).statusCode, 404, 'used');

  const [job] = await app.producers.queues.notify.getJobs(['completed', 'waiting', 'active', 'delayed']);
  const keys = (await app.producers.redis.keys(`${env.config.QUEUE_PREFIX}:notify:*`)).join('\n');
  const metrics = (await app.inject('/metrics')).body;
  const places: [string, string][] = [
    ['the Message-ID', mail!.message_id ?? ''],
    ['the queue’s Redis keys (job ids)', keys],
    ['the notify key', String(job?.data.key ?? '')],
    ['the api log', apiLog.text()],
    ['the worker log', workerLog.text()],
    ['/metrics', metrics],
  ];
  t.match(mail!.message_id, /^<cc-mail-[0-9]+@commandcenter\.test>$/, 'the Message-ID names the mail intent, not the link');
  t.ok(apiLog.text().includes('/v1/invitations/[redacted]'), 'the api logged the requests, with the token masked');
  for (const [name, text] of places) {
    t.notOk(text.includes(token), `no token in ${name}`);
    t.notOk(text.includes(token.slice(0, 16)), `not even part of it in ${name}`);
  }
  t.notOk(mail!.message_id!.includes('erin'), 'nor the address in the Message-ID');
});
