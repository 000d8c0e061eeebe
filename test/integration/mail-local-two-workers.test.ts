/**
 * Several workers on one machine with the default MAIL=local: the local mail server runs once (the first process to
 * take LOCAL_SMTP_PORT, or `make start`'s mail process) and the others send to it instead of dying with EADDRINUSE.
 */
import t from 'tap';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { createProducer } from '@cc/shared/producer.ts';
import { durableEnqueue } from '@cc/shared/outbox.ts';
import { testEnv } from '../helper.ts';
import { freePort, privateRedis, sleep, startWorkerProcess, waitFor } from '../faults.ts';
import { isLocalSmtp } from '@cc/shared/adapters/mail/local-smtp.ts';

t.test('two workers with MAIL=local on one machine: both run, mail is stored once each', async (t) => {
  const { config, pool } = await testEnv(t);
  const redis = await privateRedis(t);
  const port = await freePort();
  const env = { MAIL: 'local', LOCAL_SMTP_PORT: String(port), WORKER_QUEUES: 'notify' };
  const first = await startWorkerProcess(t, config, redis.url, env);
  const second = await startWorkerProcess(t, config, redis.url, env);
  await sleep(500);
  t.ok(first.alive(), 'the first worker runs');
  t.ok(second.alive(), `the second worker runs too: ${second.output().slice(-500)}`);
  t.ok(await isLocalSmtp(port), 'the port serves the local mail');

  const producer = createProducer(redis.url, config.QUEUE_PREFIX, () => undefined);
  t.teardown(() => producer.close());
  const enqueue = durableEnqueue(pool, producer);
  for (let i = 0; i < 6; i++) await enqueue('notify', 'notify.send', { to: [`user${i}@example.com`], subject: `hello ${i}`, text: 'hi', key: `two-workers-${i}` });
  const stored = await waitFor('the mails to be stored', async () => {
    const { rows } = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM mail_message WHERE subject LIKE 'hello %'`);
    return rows[0].n >= 6 ? rows[0].n : null;
  }, 60_000, 100);
  await sleep(300);
  const { rows } = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM mail_message WHERE subject LIKE 'hello %'`);
  t.equal(rows[0].n, 6, `6 mails stored, none twice (${stored} seen first)`);
});

t.test("the mail process of `make start`: serves the port once, a second one exits 0; another program's port is refused", async (t) => {
  const { config } = await testEnv(t);
  const port = await freePort();
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_ENV: 'test', DATABASE_URL: config.DATABASE_URL, LOCAL_SMTP_PORT: String(port), LOG_LEVEL: 'info' };
  const run = () => spawn(process.execPath, ['--import', 'tsx', 'workers/src/mail/main.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const mail = run();
  t.teardown(() => mail.kill('SIGKILL'));
  await waitFor('the mail process to listen', () => isLocalSmtp(port), 30_000, 100);
  const again = run();
  const [code] = (await once(again, 'exit')) as [number];
  t.equal(code, 0, 'a second mail process exits 0: the server already runs');
  t.equal(mail.exitCode, null, 'the first still serves');
  mail.kill('SIGTERM');
  await once(mail, 'exit');

  // A port held by something else: the worker must not send our mail there.
  const other = createServer((s) => s.end('220 some.other.server ESMTP\r\n'));
  await new Promise<void>((resolve) => other.listen(port, '127.0.0.1', resolve));
  t.teardown(() => other.close());
  const refused = run();
  let out = '';
  refused.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const [rc] = (await once(refused, 'exit')) as [number];
  t.not(rc, 0);
  t.match(out, new RegExp(`LOCAL_SMTP_PORT ${port} is taken by another program`));
});
