/**
 * A Redis outage in the logs: one structured (JSON) line per process when it starts and one when it ends, instead of
 * a line (and often a multi-line non-JSON dump) per reconnection attempt of every connection.
 */
import t from 'tap';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import type { Redis } from 'ioredis';
import { createProducer } from '@cc/shared/producer.ts';
import { redisConnection, redisOutage } from '@cc/shared/redis.ts';
import { testEnv } from '../helper.ts';
import { privateRedis, sleep, startWorkerProcess, waitFor } from '../faults.ts';

const UNREACHABLE = 'redis unreachable; connections retry, and one line follows when it is back';
const BACK = 'redis reachable again';

/** The lines a process wrote, each JSON or reported as not. */
function parseLines(text: string): { json: { msg?: string; redis?: Record<string, unknown> }[]; other: string[] } {
  const json = [];
  const other = [];
  for (const line of text.split('\n').filter((l) => l.trim() !== '')) {
    try {
      json.push(JSON.parse(line) as { msg?: string });
    } catch {
      other.push(line);
    }
  }
  return { json, other };
}

t.test('a worker process through a Redis outage: one line at its start, one at its end, all JSON', async (t) => {
  const { config } = await testEnv(t);
  const redis = await privateRedis(t);
  const worker = await startWorkerProcess(t, config, redis.url, { WORKER_QUEUES: 'notify,billing-ingest,anomaly-detect' });
  await redis.stop();
  await sleep(4_000);
  await redis.start();
  await waitFor('the end of the outage in the log', async () => worker.output().includes(BACK), 30_000, 100).catch(() => undefined);
  await sleep(1_000);
  const started = worker.output().indexOf('workers started');
  const { json, other } = parseLines(worker.output().slice(worker.output().indexOf('\n', started) + 1));
  t.same(other.slice(0, 5), [], 'no line that is not JSON');
  t.equal(json.filter((l) => l.msg === UNREACHABLE).length, 1, 'one line when it starts');
  t.equal(json.filter((l) => l.msg === BACK).length, 1, 'one line when it ends');
  t.same(json.filter((l) => /ECONNREFUSED|Connection is closed/.test(JSON.stringify(l)) && l.msg !== UNREACHABLE).map((l) => l.msg).slice(0, 5), [], 'no other line about it');
  t.ok(worker.alive());
});

t.test('in one process, every connection (producer and its queues, workers, blocking duplicates): one line each way', async (t) => {
  const lines: string[] = [];
  redisOutage.useLogger(pino({ level: 'info' }, new Writable({ write: (chunk: Buffer, _enc, done) => (lines.push(chunk.toString()), done()) })));
  const redis = await privateRedis(t);
  const producer = createProducer(redis.url, 'outage-test', () => undefined);
  t.teardown(() => producer.close());
  const worker = redisConnection(redis.url, 'worker');
  // one server here: its duplicate is a Redis connection (a Cluster's would take node lists)
  const blocking = (worker as Redis).duplicate();
  t.teardown(() => (worker.disconnect(), blocking.disconnect()));
  await producer.queues.notify.getJobCounts();
  await redis.stop();
  await sleep(3_000);
  t.ok(redisOutage.down, 'the outage is known');
  await redis.start();
  await waitFor('the connections to be back', async () => !redisOutage.down && (await producer.queues.notify.getJobCounts()) !== null, 20_000, 100);
  const { json, other } = parseLines(lines.join(''));
  t.same(other, []);
  t.same(json.map((l) => l.msg), [UNREACHABLE, BACK]);
  t.match(json[1].redis, { down_ms: Number, failed_attempts: Number });
});
