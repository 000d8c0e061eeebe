/**
 * Every worker runs the reconciler, each pass over the same outbox rows. A job that finishes between a pass's read of
 * its row (still open) and its look into Redis (the job gone: completed jobs are removed) must not be taken for a job
 * Redis lost and queued again. `make scale` met it as one of six ingests run twice (harmless there, the handler
 * found its work done, but a second run all the same).
 */
import t from 'tap';
import type { Queue } from 'bullmq';
import { createProducer } from '@cc/shared/producer.ts';
import { durableEnqueue } from '@cc/shared/outbox.ts';
import { markOutboxDone } from '@cc/shared/db/outbox.ts';
import { testEnv } from '../helper.ts';
import { REDIS_URL } from '../db.ts';
import { startReconciler } from '../../workers/src/reliability/reconciler.ts';

t.test('a job that completes while a reconciler pass looks at it is not queued again', async (t) => {
  const { pool, config } = await testEnv(t, { seed: false });
  const producer = createProducer(REDIS_URL, config.QUEUE_PREFIX, () => undefined);
  t.teardown(() => producer.close());
  const jobId = await durableEnqueue(pool, producer)('maintenance', 'maintenance.purge', { day: '2026-11-02' });
  // Published long ago, still open: the pass reads it as a candidate for "lost".
  await pool.query(`UPDATE outbox SET published_at = now() - interval '1 hour' WHERE job_id = $1`, [jobId]);
  const queue = producer.queues.maintenance;
  const getJob = queue.getJob.bind(queue);
  let looked = 0;
  // The worker's side of the interleaving, as it runs: the outbox row closed (onJobDone), then the job removed.
  (queue as Queue).getJob = async (id: string) => {
    if (looked++ === 0) {
      await markOutboxDone(pool, 'maintenance', id);
      await (await getJob(id))?.remove();
    }
    return getJob(id);
  };
  const infos: object[] = [];
  const reconciler = startReconciler({
    pool,
    producer,
    queues: [],
    intervalMs: 3_600_000,
    lostAfterMs: 1000,
    scheduleEveryMs: 3_600_000,
    ingestStaleSeconds: 7200,
    log: { warn: () => undefined, info: (obj: object) => void infos.push(obj) },
  });
  await new Promise((r) => setTimeout(r, 500));
  await reconciler.stop();
  t.ok(looked >= 1, 'the pass looked the job up');
  t.equal(await getJob(jobId), undefined, 'not queued again');
  t.same(infos, [], 'nothing republished');
});
