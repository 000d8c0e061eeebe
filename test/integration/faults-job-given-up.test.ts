/**
 * What the worker host does with a failed attempt, through its real BullMQ workers and the outbox:
 *  - an outage (the database refusing) defers the job without counting the attempt: a job with 1 attempt survives
 *    three refusals and completes;
 *  - a job given up for its own failure stays in the failed set with its reason (the operator board reads it), is
 *    counted in cc_job_failures_total with final="true" and reason="work", and its outbox row is closed with it;
 *  - a job given up because of an outage goes back to pending in the outbox, and a reconciler pass queues it again.
 */
import t, { type Test } from 'tap';
import pg from 'pg';
import { UnrecoverableError } from 'bullmq';
import { createProducer } from '@cc/shared/producer.ts';
import { durableEnqueue } from '@cc/shared/outbox.ts';
import { markOutboxDone, recordOutbox } from '@cc/shared/db/outbox.ts';
import type { Handler } from '@cc/shared/queues.ts';
import { testEnv } from '../helper.ts';
import { REDIS_URL } from '../db.ts';
import { waitFor } from '../faults.ts';
import { startWorkers } from '../../workers/src/worker-host.ts';
import { publishPending } from '../../workers/src/reliability/reconciler.ts';

const refused = () => Object.assign(new pg.DatabaseError('database "cc" is not currently accepting connections', 0, 'error'), { code: '55000' });

async function setup(t: Test, handler: Handler<'maintenance'>) {
  const { pool, config } = await testEnv(t, { seed: false });
  const producer = createProducer(REDIS_URL, config.QUEUE_PREFIX, () => undefined);
  t.teardown(() => producer.close());
  const host = await startWorkers({
    redisUrl: REDIS_URL,
    prefix: config.QUEUE_PREFIX,
    queues: ['maintenance'],
    handlers: { maintenance: handler },
    onJobDone: (queue, jobId, error) => markOutboxDone(pool, queue, jobId, error),
    deferral: { baseMs: 50, maxMs: 200 },
  });
  t.teardown(() => host.close());
  const enqueue = durableEnqueue(pool, producer);
  const row = async (jobId: string) =>
    (await pool.query<{ published: boolean; done: boolean; last_error: string | null }>(
      'SELECT published_at IS NOT NULL AS published, done_at IS NOT NULL AS done, last_error FROM outbox WHERE job_id = $1',
      [jobId],
    )).rows[0];
  const metric = async (name: string) => (await host.metrics.getSingleMetricAsString(name)).split('\n').filter((l) => !l.startsWith('#') && l.trim());
  return { pool, producer, enqueue, row, metric };
}

t.test('the database refusing three times: the job is deferred, not failed, and completes on its one attempt', async (t) => {
  let calls = 0;
  const { enqueue, row, metric } = await setup(t, async () => {
    if (++calls <= 3) throw refused();
    return { purged: 0 };
  });
  const jobId = await enqueue('maintenance', 'maintenance.purge', { day: '2026-11-01' }, { attempts: 1 });
  await waitFor('the job to complete', async () => (await row(jobId))?.done, 30_000, 50);
  t.equal(calls, 4, 'three refused runs, then the one that worked');
  t.same(await row(jobId), { published: true, done: true, last_error: null }, 'closed without an error');
  t.same(await metric('cc_job_deferrals_total'), ['cc_job_deferrals_total{queue="maintenance"} 3']);
  t.same(await metric('cc_job_failures_total'), [], 'no failure counted');
});

t.test('given up for its own failure: in the failed set with its reason, counted, its outbox row closed', async (t) => {
  const { producer, enqueue, row, metric } = await setup(t, async () => {
    throw new Error('the purge refused row 7');
  });
  const jobId = await enqueue('maintenance', 'maintenance.purge', { day: '2026-11-02' }, { attempts: 2, backoff: { type: 'fixed', delay: 10 } });
  await waitFor('the row closed', async () => (await row(jobId))?.done, 30_000, 50);
  const job = await producer.queues.maintenance.getJob(jobId);
  t.equal(await job?.getState(), 'failed', 'kept in the failed set (the operator board)');
  t.equal(job?.failedReason, 'the purge refused row 7', 'with its reason');
  t.same(await row(jobId), { published: true, done: true, last_error: 'the purge refused row 7' });
  t.same(await metric('cc_job_failures_total'), [
    'cc_job_failures_total{queue="maintenance",final="false",reason="work"} 1',
    'cc_job_failures_total{queue="maintenance",final="true",reason="work"} 1',
  ]);
});

t.test('given up because of an outage: back to pending, queued again by the reconciler, then done', async (t) => {
  let calls = 0;
  // Stands for a job BullMQ failed during an outage that its deferral could not catch (Redis away as well).
  const { pool, producer, enqueue, row, metric } = await setup(t, async () => {
    if (++calls === 1) throw new UnrecoverableError('connect ECONNREFUSED 127.0.0.1:5432');
    return { purged: 0 };
  });
  const jobId = await enqueue('maintenance', 'maintenance.purge', { day: '2026-11-03' });
  await waitFor('the row back to pending', async () => (await row(jobId))?.published === false, 30_000, 50);
  t.same(await row(jobId), { published: false, done: false, last_error: 're-queued after an outage: connect ECONNREFUSED 127.0.0.1:5432' });
  t.same(await metric('cc_job_failures_total'), ['cc_job_failures_total{queue="maintenance",final="true",reason="infrastructure"} 1']);
  t.equal(await publishPending({ pool, producer }), 1, 'a reconciler pass queues it again');
  await waitFor('the second run to complete', async () => (await row(jobId))?.done, 30_000, 50).catch(async (err: Error) => {
    const job = await producer.queues.maintenance.getJob(jobId);
    throw new Error(`${err.message}: calls ${calls}, job ${await job?.getState()} ${job?.failedReason} ${JSON.stringify(await row(jobId))}`);
  });
  t.equal(calls, 2);
  t.same(await row(jobId), { published: true, done: true, last_error: null });
});

t.test('a job that ends before its publisher committed the published mark still closes its outbox row', async (t) => {
  const { pool } = await testEnv(t, { seed: false });
  const id = await recordOutbox(pool, { queue: 'maintenance', job_name: 'maintenance.purge', data: {}, job_id: 'maintenance-race', opts: {} });
  // The publisher (publishOutboxRows) holds the row, has added the job, and has not committed its mark yet.
  const publisher = await pool.connect();
  t.teardown(() => publisher.release());
  await publisher.query('BEGIN');
  await publisher.query('SELECT 1 FROM outbox WHERE id = $1 FOR UPDATE', [id]);
  await publisher.query('UPDATE outbox SET published_at = now(), publish_count = publish_count + 1 WHERE id = $1', [id]);
  let closed = false;
  const done = markOutboxDone(pool, 'maintenance', 'maintenance-race').then(() => (closed = true));
  await new Promise((r) => setTimeout(r, 300));
  t.notOk(closed, 'the close waits for the publisher');
  await publisher.query('COMMIT');
  await done;
  const { rows } = await pool.query<{ done: boolean }>('SELECT done_at IS NOT NULL AS done FROM outbox WHERE id = $1', [id]);
  t.same(rows, [{ done: true }], 'closed once the mark is in');
});
