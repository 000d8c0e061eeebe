/**
 * Durable enqueueing: a command is recorded in the PostgreSQL outbox before BullMQ gets it, so work
 * accepted survives the loss of Redis; the workers' reconciler publishes what is still pending. Producers (api and
 * workers) enqueue through `durableEnqueue`, which has the registry's `Enqueue` signature.
 */
import type { Job } from 'bullmq';
import { QUEUES, jobOptions, type QueueName } from './queues.ts';
import { jobIdFor, type Enqueue, type Producer } from './producer.ts';
import { withTransaction, type Pool, type Queryable } from './db/pool.ts';
import { markOutboxPublished, recordOutbox, reopenOutbox, type OutboxRow } from './db/outbox.ts';
import { ServiceUnavailable } from './unavailable.ts';

export type PublishOutcome = 'published' | 'absorbed' | 'busy';

/**
 * Adds one outbox row's job. A job of the same id that still waits absorbs the row (it has not started, so it
 * sees everything committed before it); one that is running leaves the row pending (`busy`: published again once
 * it ended, so work committed meanwhile is not folded into a run that began before it); a finished one (a failed
 * job is kept for inspection) is removed first, so the command runs again.
 */
export async function publishRow(producer: Pick<Producer, 'queues'>, row: OutboxRow): Promise<PublishOutcome> {
  const queue = producer.queues[row.queue as QueueName];
  if (!queue) throw new Error(`outbox row ${row.id} names unknown queue ${row.queue}`);
  const existing: Job | undefined = await queue.getJob(row.job_id);
  if (existing) {
    const state = await existing.getState();
    if (state === 'active') return 'busy';
    if (state === 'completed' || state === 'failed') await existing.remove();
    else if (state !== 'unknown') return 'absorbed';
  }
  const { jobId: _registryId, ...defaults } = jobOptions(row.queue as QueueName, row.data as never);
  await queue.add(row.job_name, row.data, { ...defaults, ...row.opts, jobId: row.job_id });
  return 'published';
}

export interface DurableEnqueueOptions {
  /** The api: refuse (503) while Redis is away rather than accept work it cannot start now. */
  requireRedis?: boolean;
  onPublishError?: (err: unknown, row: { queue: string; job_id: string }) => void;
}

/**
 * A durable `Enqueue` also publishes rows another transaction recorded (`enqueueInTransaction`) once that
 * transaction committed; `publishAfterCommit` calls it when the `Enqueue` it holds is one.
 */
export type DurableEnqueue = Enqueue & { publishRecorded(ids: string[]): Promise<number> };

/** Queues committed outbox rows at once when the holder's enqueue can (best effort: else the reconciler does). */
export async function publishAfterCommit(enqueue: Enqueue, ids: string[], onError?: (err: unknown) => void): Promise<void> {
  if (ids.length === 0 || !('publishRecorded' in enqueue)) return;
  await (enqueue as DurableEnqueue).publishRecorded(ids).catch((err: unknown) => onError?.(err));
}

/** An `Enqueue` that records the command in the outbox first; a failed publish is left to the reconciler. */
export function durableEnqueue(pool: Pool, producer: Pick<Producer, 'queues' | 'redis'>, opts: DurableEnqueueOptions = {}): DurableEnqueue {
  const enqueue: Enqueue = async (queue, name, data, jobOpts) => {
    if (name !== QUEUES[queue].job) throw new Error(`queue ${queue} has no job ${name}`);
    const { idScope, ...rest } = jobOpts ?? {};
    const jobId = jobIdFor(queue, data, idScope);
    if (opts.requireRedis && producer.redis.status !== 'ready') throw new ServiceUnavailable('The job queue is temporarily unavailable; try again shortly');
    const row = { queue, job_name: name, data, job_id: jobId, opts: rest as Record<string, unknown> };
    // Without a ready connection BullMQ would wait for one: record the row pending and let the reconciler publish it.
    if (producer.redis.status !== 'ready') {
      await recordOutbox(pool, row);
      return jobId;
    }
    const id = await recordOutbox(pool, row, true);
    try {
      if ((await publishRow(producer, { id, ...row })) === 'busy') await reopenOutbox(pool, id);
    } catch (err) {
      // Recorded: the reconciler publishes it once Redis answers again.
      opts.onPublishError?.(err, row);
      await reopenOutbox(pool, id, err instanceof Error ? err.message : String(err)).catch(() => undefined);
    }
    return jobId;
  };
  return Object.assign(enqueue, {
    publishRecorded: async (ids: string[]) => (producer.redis.status === 'ready' ? publishOutboxRows(pool, producer, ids) : 0),
  });
}

/**
 * An `Enqueue` that writes its commands into the caller's transaction (`tx`) as pending outbox rows: they commit
 * or roll back with the domain rows they follow, so a crash or a failure between the two loses nothing and leaves
 * no orphan. Redis is not touched; after COMMIT, `publishOutboxRows(recorded)` queues them at once (best effort),
 * and the reconciler publishes whatever that could not.
 */
export function enqueueInTransaction(tx: Queryable): { enqueue: Enqueue; recorded: string[] } {
  const recorded: string[] = [];
  const enqueue: Enqueue = async (queue, name, data, jobOpts) => {
    if (name !== QUEUES[queue].job) throw new Error(`queue ${queue} has no job ${name}`);
    const { idScope, ...rest } = jobOpts ?? {};
    const jobId = jobIdFor(queue, data, idScope);
    recorded.push(await recordOutbox(tx, { queue, job_name: name, data, job_id: jobId, opts: rest as Record<string, unknown> }));
    return jobId;
  };
  return { enqueue, recorded };
}

const PUBLISH_BATCH = 200;

/**
 * Publishes pending outbox rows (`ids`, or every pending row), each under a row lock taken with SKIP LOCKED: the
 * api publishing its own rows after COMMIT and a worker's reconciler never publish the same row twice. A row whose
 * job is running stays pending (`busy`). Resolves to the number published.
 */
export async function publishOutboxRows(pool: Pool, producer: Pick<Producer, 'queues'>, ids?: string[]): Promise<number> {
  let total = 0;
  for (;;) {
    const { done, count } = await withTransaction(pool, async (tx) => {
      const { rows } = await tx.query<OutboxRow>(
        `SELECT id, queue, job_name, data, job_id, opts FROM outbox
          WHERE published_at IS NULL AND ($2::bigint[] IS NULL OR id = ANY($2::bigint[]))
          ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [PUBLISH_BATCH, ids ?? null],
      );
      const published: string[] = [];
      try {
        for (const row of rows) if ((await publishRow(producer, row)) !== 'busy') published.push(row.id);
      } finally {
        // What went out before Redis failed is recorded as published, the rest stays pending.
        if (published.length) await markOutboxPublished(tx, published);
      }
      return { done: rows.length < PUBLISH_BATCH || ids !== undefined, count: published.length };
    });
    total += count;
    if (done) return total;
  }
}
