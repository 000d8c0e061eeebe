import { Queue, Worker, UnrecoverableError } from 'bullmq';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { SCHEDULES, SCHEDULE_TIME_ZONE, payloadError, type Handler, type Handlers, type JobOf, type QueueName } from '@cc/shared/queues.ts';
import { redisConnection } from '@cc/shared/redis.ts';
import { createLogger, type Logger } from '@cc/shared/logger.ts';

export interface WorkerHostOptions<Q extends QueueName> {
  redisUrl: string;
  prefix: string;
  queues: readonly Q[];
  handlers: Handlers<Q>;
  concurrency?: number;
  /** Default: silent (tests). */
  logger?: Logger;
  installSchedules?: boolean;
}

export interface WorkerHost {
  metrics: Registry;
  /** Stops taking jobs, waits for active ones to finish (or be released), closes connections. */
  close(): Promise<void>;
}

/**
 * Runs one BullMQ Worker per queue. Payloads are checked against the registry before the handler
 * runs (a bad payload is unrecoverable: retrying cannot fix it); a failure is logged once, on the
 * final attempt. Every queue served needs its handler, else nothing starts.
 */
export async function startWorkers<Q extends QueueName>(opts: WorkerHostOptions<Q>): Promise<WorkerHost> {
  const log = opts.logger ?? createLogger('silent');
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
  connection.on('error', (err) => log.warn({ err }, 'redis connection error'));

  function startWorker<K extends Q>(name: K, handler: Handler<K>) {
    // The Worker's payload type is the registry's claim for this queue, checked on every job before the handler runs.
    const worker = new Worker<JobOf<K>['data'], unknown, JobOf<K>['name']>(
      name,
      async (job) => {
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
    worker.on('error', (err) => log.error({ err }, `worker ${name} error`));
    worker.on('failed', (job, err) => {
      const final = !job || err instanceof UnrecoverableError || job.attemptsMade >= (job.opts.attempts ?? 1);
      failures.inc({ queue: name, final: String(final) });
      if (final) log.error({ queue: name, jobId: job?.id, err: err.message }, 'job failed');
    });
    return worker;
  }
  const workers = opts.queues.map((name) => startWorker(name, opts.handlers[name]));

  if (opts.installSchedules) {
    for (const s of SCHEDULES.filter((s) => (opts.queues as readonly QueueName[]).includes(s.queue))) {
      const queue = new Queue(s.queue, { connection, prefix: opts.prefix });
      await queue.upsertJobScheduler(s.id, { pattern: s.pattern, tz: SCHEDULE_TIME_ZONE }, { name: s.name, data: s.data });
      await queue.close();
    }
  }
  await Promise.all(workers.map((w) => w.waitUntilReady()));
  log.info({ queues: opts.queues }, 'workers started');

  return {
    metrics,
    async close() {
      await Promise.all(workers.map((w) => w.close()));
      connection.disconnect();
    },
  };
}
