import { Worker, UnrecoverableError, type Job } from 'bullmq';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { QUEUES, QUEUE_NAMES, SCHEDULES, SCHEDULE_TIME_ZONE, jobOptions, payloadError, type QueueName, type QueuePayload } from '@cc/shared/queues.ts';
import { redisConnection } from '@cc/shared/redis.ts';
import { Queue } from 'bullmq';
import type { Handler } from './handlers.ts';

export interface WorkerHostOptions {
  redisUrl: string;
  prefix: string;
  queues: QueueName[];
  handlers: Record<QueueName, Handler>;
  concurrency?: number;
  log?: (level: 'info' | 'warn' | 'error', msg: string, extra?: Record<string, unknown>) => void;
  installSchedules?: boolean;
}

export interface WorkerHost {
  workers: Worker[];
  metrics: Registry;
  /** Stops taking jobs, waits for active ones to finish (or be released), closes connections. */
  close(): Promise<void>;
}

/**
 * Runs one BullMQ Worker per queue. Payloads are checked against the registry before the handler
 * runs (a bad payload is unrecoverable: retrying cannot fix it); a failure is logged once, on the
 * final attempt.
 */
export async function startWorkers(opts: WorkerHostOptions): Promise<WorkerHost> {
  const log = opts.log ?? (() => undefined);
  for (const q of opts.queues) {
    if (typeof opts.handlers[q] !== 'function') throw new Error(`no handler registered for queue ${q}`);
  }
  const metrics = new Registry();
  collectDefaultMetrics({ register: metrics });
  const duration = new Histogram({
    name: 'cc_job_duration_seconds',
    help: 'Job processing time',
    labelNames: ['queue', 'outcome'],
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300],
    registers: [metrics],
  });
  const failures = new Counter({ name: 'cc_job_failures_total', help: 'Failed job attempts', labelNames: ['queue', 'final'], registers: [metrics] });

  const connection = redisConnection(opts.redisUrl, 'worker');
  connection.on('error', (err) => log('warn', 'redis connection error', { err: String(err) }));

  const workers = opts.queues.map((name) => {
    const handler = opts.handlers[name];
    const worker = new Worker(
      name,
      async (job: Job) => {
        const problem = payloadError(name, job.data);
        if (problem) throw new UnrecoverableError(`bad ${name} payload: ${problem}`);
        const end = duration.startTimer({ queue: name });
        try {
          const result = await handler(job);
          end({ outcome: 'completed' });
          return result;
        } catch (err) {
          end({ outcome: 'failed' });
          throw err;
        }
      },
      { connection, prefix: opts.prefix, concurrency: opts.concurrency ?? 4, autorun: true },
    );
    worker.on('error', (err) => log('error', `worker ${name} error`, { err: String(err) }));
    worker.on('failed', (job, err) => {
      const final = !job || err instanceof UnrecoverableError || job.attemptsMade >= (job.opts.attempts ?? 1);
      failures.inc({ queue: name, final: String(final) });
      if (final) log('error', `job failed`, { queue: name, jobId: job?.id, err: err.message });
    });
    return worker;
  });

  if (opts.installSchedules) {
    for (const s of SCHEDULES.filter((s) => opts.queues.includes(s.queue))) {
      const queue = new Queue(s.queue, { connection, prefix: opts.prefix });
      await queue.upsertJobScheduler(s.id, { pattern: s.pattern, tz: SCHEDULE_TIME_ZONE }, { name: QUEUES[s.queue].job, data: s.data });
      await queue.close();
    }
  }
  await Promise.all(workers.map((w) => w.waitUntilReady()));
  log('info', `workers started`, { queues: opts.queues });

  return {
    workers,
    metrics,
    async close() {
      await Promise.all(workers.map((w) => w.close()));
      connection.disconnect();
    },
  };
}

/** Adds one job to a queue of the registry (deterministic job id from the registry); resolves to the job id. */
export type Enqueue = <Q extends QueueName>(queue: Q, data: QueuePayload<Q>) => Promise<string>;

/** A producer for jobs that enqueue other jobs (the api has its own in plugins/external/queues.ts). */
export function createProducer(redisUrl: string, prefix: string): { enqueue: Enqueue; close(): Promise<void> } {
  const connection = redisConnection(redisUrl, 'producer');
  connection.on('error', () => undefined);
  const queues = new Map<QueueName, Queue>();
  const queueOf = (name: QueueName) => {
    let q = queues.get(name);
    if (!q) {
      if (!QUEUE_NAMES.includes(name)) throw new Error(`unknown queue ${name}`);
      q = new Queue(name, { connection, prefix });
      queues.set(name, q);
    }
    return q;
  };
  return {
    async enqueue(queue, data) {
      const job = await queueOf(queue).add(QUEUES[queue].job, data, jobOptions(queue, data));
      return job.id ?? '';
    },
    async close() {
      await Promise.all([...queues.values()].map((q) => q.close()));
      connection.disconnect();
    },
  };
}
