/**
 * The reconciler: PostgreSQL is the record of queued work, Redis only carries it. Every worker process
 * runs this loop; each pass
 *  - publishes pending outbox rows (the api recorded them while Redis was away, or a trigger wrote them in an
 *    ingest's transaction), rows locked with SKIP LOCKED so two workers never publish the same row at once;
 *  - publishes again a job Redis lost (published long enough ago, never reported done, unknown to BullMQ);
 *  - re-installs the nightly schedules every SCHEDULE_RECONCILE_MS (a Redis that restarted empty gets them back);
 *  - fails ingest batches a dead worker left `running`.
 * A pass that meets Redis or PostgreSQL away logs one warning and tries again at the next tick.
 */
import { SCHEDULES, SCHEDULE_TIME_ZONE, type QueueName } from '@cc/shared/queues.ts';
import type { Pool } from '@cc/shared/db/pool.ts';
import type { Producer } from '@cc/shared/producer.ts';
import { failStaleIngestBatches, isOutboxOpen, markOutboxDone, markOutboxError, markOutboxPublished, unfinishedOutbox } from '@cc/shared/db/outbox.ts';
import { publishOutboxRows, publishRow } from '@cc/shared/outbox.ts';
import type { Logger } from '@cc/shared/logger.ts';

export interface ReconcilerOptions {
  pool: Pool;
  producer: Pick<Producer, 'queues' | 'redis'>;
  /** Queues whose schedules this process keeps installed (those it serves). */
  queues: readonly QueueName[];
  intervalMs: number;
  lostAfterMs: number;
  scheduleEveryMs: number;
  ingestStaleSeconds: number;
  log: Pick<Logger, 'warn' | 'info'>;
}

export interface PassResult {
  published: number;
  republished: number;
  schedules: number;
  staleBatches: number;
}

const BATCH = 200;

/** Publishes every pending outbox row (exported for the seed and tests: one pass without the loop). */
export const publishPending = (o: Pick<ReconcilerOptions, 'pool' | 'producer'>): Promise<number> => publishOutboxRows(o.pool, o.producer);

async function republishLost(o: ReconcilerOptions): Promise<number> {
  let n = 0;
  for (const row of await unfinishedOutbox(o.pool, o.lostAfterMs, BATCH)) {
    const queue = o.producer.queues[row.queue as QueueName];
    const job = queue ? await queue.getJob(row.job_id) : undefined;
    const state = job ? await job.getState() : 'unknown';
    if (state === 'completed' || state === 'failed') {
      // It ended but its worker died before telling PostgreSQL.
      await markOutboxDone(o.pool, row.queue, row.job_id, state === 'failed' ? job?.failedReason : undefined);
    } else if (state === 'unknown' && (await isOutboxOpen(o.pool, row.id))) {
      // Read again after the look into Redis: a job that completed in between closed its row before BullMQ removed
      // it (worker-host's onJobDone), so only a row still open here belongs to a job Redis lost. Without this, the
      // reconcilers of several workers now and then ran a finished job a second time.
      try {
        await publishRow(o.producer, row);
        await markOutboxPublished(o.pool, [row.id]);
        n++;
      } catch (err) {
        await markOutboxError(o.pool, row.id, err instanceof Error ? err.message : String(err));
        throw err;
      }
    }
  }
  return n;
}

/** Upserts the job schedulers of the queues (idempotent: BullMQ keys them by id). */
export async function installSchedules(producer: Pick<Producer, 'queues'>, queues: readonly QueueName[]): Promise<number> {
  const due = SCHEDULES.filter((s) => queues.includes(s.queue));
  for (const s of due) {
    await producer.queues[s.queue].upsertJobScheduler(s.id, { pattern: s.pattern, tz: SCHEDULE_TIME_ZONE }, { name: s.name, data: s.data });
  }
  return due.length;
}

export function startReconciler(o: ReconcilerOptions) {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let lastSchedules = 0;
  let current: Promise<unknown> = Promise.resolve();
  let failing = false;

  async function pass(): Promise<PassResult> {
    const result: PassResult = { published: 0, republished: 0, schedules: 0, staleBatches: 0 };
    if (o.producer.redis.status !== 'ready') {
      await failStaleIngestBatches(o.pool, o.ingestStaleSeconds);
      throw new Error('redis not reachable');
    }
    const noActiveJobs = (await o.producer.queues['billing-ingest'].getActiveCount()) === 0;
    result.staleBatches = await failStaleIngestBatches(o.pool, o.ingestStaleSeconds, { noActiveJobs, orphanAfterMs: o.lostAfterMs });
    result.published = await publishPending(o);
    result.republished = await republishLost(o);
    if (Date.now() - lastSchedules >= o.scheduleEveryMs) {
      result.schedules = await installSchedules(o.producer, o.queues);
      lastSchedules = Date.now();
    }
    return result;
  }

  const tick = async () => {
    try {
      const r = await pass();
      if (failing || r.published || r.republished || r.staleBatches) o.log.info({ ...r }, 'reconciler pass');
      failing = false;
    } catch (err) {
      // One warning per outage, not one per tick.
      if (!failing) o.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'reconciler pass failed; retrying');
      failing = true;
    }
    if (!stopped) timer = setTimeout(() => void (current = tick()), o.intervalMs);
  };
  timer = setTimeout(() => void (current = tick()), 0);

  return {
    /** One pass now (tests, and the worker right after a commit). */
    runOnce: pass,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await current.catch(() => undefined);
    },
  };
}
