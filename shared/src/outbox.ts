/**
 * Durable enqueueing (issue 18): a command is recorded in the PostgreSQL outbox before BullMQ gets it, so work
 * accepted survives the loss of Redis; the workers' reconciler publishes what is still pending. Producers (api and
 * workers) enqueue through `durableEnqueue`, which has the registry's `Enqueue` signature.
 */
import type { Job } from 'bullmq';
import { QUEUES, jobOptions, type QueueName } from './queues.ts';
import { jobIdFor, type Enqueue, type Producer } from './producer.ts';
import type { Pool } from './db/pool.ts';
import { recordOutbox, reopenOutbox, type OutboxRow } from './db/outbox.ts';
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

/** An `Enqueue` that records the command in the outbox first; a failed publish is left to the reconciler. */
export function durableEnqueue(pool: Pool, producer: Pick<Producer, 'queues' | 'redis'>, opts: DurableEnqueueOptions = {}): Enqueue {
  return async (queue, name, data, jobOpts) => {
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
}
