/**
 * The one producer: adds jobs of the registry (queues.ts) with its job ids and default options. The api, the
 * workers (follow-up jobs) and the seed scripts all enqueue through it.
 */
import { Queue, type JobsOptions } from 'bullmq';
import { QUEUES, QUEUE_NAMES, jobOptions, type JobOf, type QueueName } from './queues.ts';
import { queuePrefix, redisConnection, type RedisClient } from './redis.ts';

/**
 * Adds one job; the registry fixes its id (the same command never runs as two jobs). Resolves to the job id.
 * `idScope` prefixes that id for a run that must not merge with the same command queued by someone else (the
 * nightly ingest's `nightly-<day>`: a rerun the same night is one job, an admin's ingest stays its own).
 */
export type Enqueue = <Q extends QueueName>(
  queue: Q,
  name: JobOf<Q>['name'],
  data: JobOf<Q>['data'],
  opts?: Omit<JobsOptions, 'jobId'> & { idScope?: string },
) => Promise<string>;

export interface Producer {
  enqueue: Enqueue;
  /** One BullMQ Queue per registry entry (bull-board and the queue metrics read them). */
  queues: Record<QueueName, Queue>;
  /** The fail-fast connection the queues share; other short Redis commands may use it too. */
  redis: RedisClient;
  close(): Promise<void>;
}

/**
 * Producers fail fast (no offline queue): a request never hangs on a Redis outage. `onError` hears connection
 * errors, which would otherwise be unhandled 'error' events.
 */
/** The registry's deterministic job id for a command, prefixed by `idScope` when the caller gives one. */
export function jobIdFor<Q extends QueueName>(queue: Q, data: JobOf<Q>['data'], idScope?: string): string {
  const id = jobOptions(queue, data).jobId as string;
  if (!idScope) return id;
  if (idScope.includes(':')) throw new Error(`invalid job id scope '${idScope}'`);
  return `${idScope}-${id}`;
}

export function createProducer(redisUrl: string, prefix: string, onError: (err: Error) => void): Producer {
  const redis = redisConnection(redisUrl, 'producer');
  redis.on('error', onError);
  const queues = Object.fromEntries(QUEUE_NAMES.map((name) => [name, new Queue(name, { connection: redis, prefix: queuePrefix(prefix, name) })])) as Record<QueueName, Queue>;
  return {
    queues,
    redis,
    async enqueue(queue, name, data, opts) {
      if (name !== QUEUES[queue].job) throw new Error(`queue ${queue} has no job ${name}`);
      const { idScope, ...rest } = opts ?? {};
      const options = { ...jobOptions(queue, data), ...rest, jobId: jobIdFor(queue, data, idScope) };
      const job = await queues[queue].add(name, data, options);
      return job.id ?? '';
    },
    async close() {
      await Promise.all(Object.values(queues).map((q) => q.close()));
      redis.disconnect();
    },
  };
}
