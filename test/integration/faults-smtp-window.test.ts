/**
 * Fault: the worker is killed (-9) by the SMTP server itself, right after it answered 250 to a notice
 * and before the worker could record the send; and, for others, while the server was still taking the envelope
 * (before any of the message went out). The server here is a fake relay in this test that records every message it
 * accepted. What the README promises (MAIL_RESEND_UNCERTAIN=false, the default for a relay): no Message-ID twice,
 * and no notice lost when the crash came before the message was handed over.
 */
import t from 'tap';
import { SMTPServer } from 'smtp-server';
import { createProducer } from '@cc/shared/producer.ts';
import { durableEnqueue } from '@cc/shared/outbox.ts';
import { testEnv } from '../helper.ts';
import { privateRedis, startWorkerProcess, waitFor, type WorkerProcess } from '../faults.ts';

/** Killed right after the 250 of their first attempt. */
const AFTER_250 = 4;
/** Killed at RCPT TO of their first attempt: nothing of the message reached the server. */
const BEFORE_DATA = 2;

interface Received {
  messageId: string;
  rcpt: string;
}

/** A relay that stores what it accepted and kills the worker at the moments the test names. */
async function fakeRelay(t: { teardown(fn: () => unknown): void }, kill: () => void) {
  const received: Received[] = [];
  const killedFor = new Set<string>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith('beforedata-') && !killedFor.has(address.address)) {
        killedFor.add(address.address);
        kill();
        return; // the worker is gone; the connection drops with no answer
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const rcpt = session.envelope.rcptTo[0].address;
        received.push({ messageId: /^Message-ID:\s*(\S+)/im.exec(raw)?.[1] ?? '', rcpt });
        // The message is the server's now. The kill goes out in the same tick as the 250, just before it: sent
        // after it, a fast worker could read the 250 and record the send first, and the crash would miss the window.
        if (rcpt.startsWith('after250-') && !killedFor.has(rcpt)) {
          killedFor.add(rcpt);
          kill();
        }
        callback();
      });
    },
  });
  // A client killed mid-session resets its connection: expected here, not an error of the test.
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { port: (server.server.address() as { port: number }).port, received, kills: () => killedFor.size };
}

t.test('a crash between the relay\'s 250 and the record of the send: one copy per Message-ID, none lost', async (t) => {
  const redis = await privateRedis(t);
  const { pool, config } = await testEnv(t, { config: { REDIS_URL: redis.url } });
  let worker: WorkerProcess | null = null;
  const relay = await fakeRelay(t, () => worker && process.kill(worker.pid, 'SIGKILL'));
  const env = { WORKER_QUEUES: 'notify', MAIL: 'real', SMTP_URL: `smtp://127.0.0.1:${relay.port}` };
  worker = await startWorkerProcess(t, config, redis.url, env);
  const producer = createProducer(redis.url, config.QUEUE_PREFIX, () => undefined);
  t.teardown(() => producer.close());
  const enqueue = durableEnqueue(pool, producer);

  const notices = [
    ...Array.from({ length: AFTER_250 }, (_, i) => `after250-${i}@example.test`),
    ...Array.from({ length: BEFORE_DATA }, (_, i) => `beforedata-${i}@example.test`),
  ];
  // One at a time, so each kill hits the notice it names and no other send is half way.
  for (const [i, to] of notices.entries()) {
    await enqueue('notify', 'notify.send', { to: [to], subject: `Notice ${i}`, text: `Notice number ${i}.`, key: `smtp-window-${i}` });
    await waitFor(`the kill for ${to}`, async () => relay.kills() > i, 60_000, 20);
    // The kill landed in the window the test means: the relay saw the message (or its envelope), nothing recorded.
    const { rows: [intent] } = await pool.query<{ sent_at: Date | null }>('SELECT sent_at FROM mail_intent WHERE key = $1', [`smtp-window-${i}`]);
    t.equal(intent?.sent_at ?? null, null, `${to}: the worker died before recording the send`);
    await waitFor('worker gone', async () => !worker!.alive(), 10_000, 20);
    worker = await startWorkerProcess(t, config, redis.url, env);
    await waitFor(`${to} settled`, async () => (await pool.query('SELECT 1 FROM mail_sent WHERE key = $1', [`smtp-window-${i}`])).rowCount === 1, 60_000, 50);
  }
  // Long enough for a wrong re-send (stalled check every 500 ms, lost-job check after 2 s).
  await new Promise((r) => setTimeout(r, 3000));

  const ids = relay.received.map((r) => r.messageId);
  const duplicates = ids.length - new Set(ids).size;
  t.comment(`notices ${notices.length}, worker kills ${relay.kills()}, messages the relay accepted ${ids.length}, duplicates ${duplicates}`);
  t.equal(duplicates, 0, 'no Message-ID accepted twice');
  for (const to of notices) t.equal(relay.received.filter((r) => r.rcpt === to).length, 1, `${to}: exactly one copy`);
  t.ok(ids.every((id) => /^<cc-mail-\d+@/.test(id)), 'each under its intent\'s stable Message-ID');

  const { rows } = await pool.query<{ key: string; attempts: number; uncertain: boolean; sent: boolean }>(
    `SELECT key, attempts, uncertain_at IS NOT NULL AS uncertain, sent_at IS NOT NULL AS sent FROM mail_intent ORDER BY id`);
  t.same(rows.slice(0, AFTER_250).map((r) => r.uncertain), Array(AFTER_250).fill(true), 'after the 250: counted as sent and flagged uncertain, not sent again');
  t.same(rows.slice(AFTER_250).map((r) => [r.uncertain, r.sent, r.attempts]), Array(BEFORE_DATA).fill([false, true, 2]), 'before the data: sent again, once');
  t.ok(worker.alive(), 'the last worker is running');
});
