/**
 * Fault: the worker is killed (-9) in the middle of a channel delivery — the receiver has the whole request and the
 * worker dies before it reads the answer — for several notices, one after the other. What is promised: none lost
 * (each is delivered once the next worker takes the job back) and each comes again under the same delivery id, so a
 * receiver that keeps the ids it has processed (this one) acts on each notice once.
 */
import t from 'tap';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { createProducer } from '@cc/shared/producer.ts';
import { durableEnqueue } from '@cc/shared/outbox.ts';
import { queueChannelEvent } from '@cc/shared/notification-channels/queue.ts';
import { createSecretBox } from '@cc/shared/secret-box.ts';
import { insertChannel } from '@cc/shared/db/notification-channels.ts';
import { testEnv } from '../helper.ts';
import { privateRedis, startWorkerProcess, waitFor, type WorkerProcess } from '../faults.ts';

const NOTICES = 4;

t.test('a worker killed mid-delivery: every notice delivered, each delivery id acted on once', async (t) => {
  const redis = await privateRedis(t);
  const { pool, config } = await testEnv(t, { config: { REDIS_URL: redis.url } });
  let worker: WorkerProcess | null = null;
  const requests: string[] = [];
  const processed = new Set<string>();
  let actedOn = 0;
  const killedFor = new Set<string>();
  const server = createServer((req, res) => {
    const id = String(req.headers['x-commandcenter-delivery']);
    req.resume();
    req.on('end', () => {
      requests.push(id);
      if (!killedFor.has(id)) {
        // The request arrived whole; the worker dies before any answer.
        killedFor.add(id);
        if (worker) process.kill(worker.pid, 'SIGKILL');
        return;
      }
      // An idempotent receiver: a delivery id it has seen is acknowledged, not acted on again.
      if (!processed.has(id)) {
        processed.add(id);
        actedOn += 1;
      }
      res.writeHead(200).end('ok');
    });
  });
  server.on('clientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`;

  const channelId = randomUUID();
  const box = createSecretBox(config.SECRETS_KEY!);
  await insertChannel(pool, {
    id: channelId, customer_id: 'acme-corp', kind: 'webhook', name: 'Fault hook', url_sealed: box.seal(url, channelId),
    secret_sealed: box.seal('whsec_test', channelId), url_host: new URL(url).host, events: ['anomaly.found'], created_by: 'test',
  });
  const env = { WORKER_QUEUES: 'notify-channel' };
  worker = await startWorkerProcess(t, config, redis.url, env);
  const producer = createProducer(redis.url, config.QUEUE_PREFIX, () => undefined);
  t.teardown(() => producer.close());
  const enqueue = durableEnqueue(pool, producer);

  for (let i = 0; i < NOTICES; i++) {
    await queueChannelEvent(pool, enqueue, {
      type: 'anomaly.found', key: `fault-${i}`, customer_id: 'acme-corp', occurred_at: new Date().toISOString(),
      title: `Notice ${i}`, text: `Notice number ${i}.`, facts: [], link: null, data: { i },
    });
    await waitFor(`the kill for notice ${i}`, async () => killedFor.size > i, 60_000, 20);
    const { rows: [d] } = await pool.query<{ delivered_at: Date | null }>(`SELECT delivered_at FROM channel_delivery WHERE event_key = $1`, [`fault-${i}`]);
    t.equal(d.delivered_at, null, `notice ${i}: the worker died before recording the delivery`);
    await waitFor('worker gone', async () => !worker!.alive(), 10_000, 20);
    worker = await startWorkerProcess(t, config, redis.url, env);
    await waitFor(`notice ${i} delivered`, async () => (await pool.query(`SELECT 1 FROM channel_delivery WHERE event_key = $1 AND delivered_at IS NOT NULL`, [`fault-${i}`])).rowCount === 1, 60_000, 50);
  }
  // Long enough for a wrong re-send (stalled check every 500 ms, lost-job check after 2 s).
  await new Promise((r) => setTimeout(r, 3000));

  const { rows } = await pool.query<{ id: string }>(`SELECT id::text FROM channel_delivery WHERE channel_id = $1 AND delivered_at IS NOT NULL ORDER BY event_key`, [channelId]);
  t.comment(`notices ${NOTICES}, worker kills ${killedFor.size}, requests ${requests.length}, acted on ${actedOn}`);
  t.equal(rows.length, NOTICES, 'every notice delivered: none lost');
  t.same([...processed].sort(), rows.map((r) => r.id).sort(), 'the receiver acted on each delivery id');
  t.equal(actedOn, NOTICES, 'and on each once');
  for (const r of rows) t.equal(requests.filter((id) => id === r.id).length, 2, `${r.id}: sent again after the kill, under the same id, and no more`);
  t.ok(worker.alive(), 'the last worker is running');
});
