import { DelayedError, Queue, Worker, UnrecoverableError } from 'bullmq';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { SCHEDULES, SCHEDULE_TIME_ZONE, payloadError, type Handler, type Handlers, type JobOf, type QueueName } from '@cc/shared/queues.ts';
import { queuePrefix, redisConnection } from '@cc/shared/redis.ts';
import { createLogger, type Logger } from '@cc/shared/logger.ts';
import { isInfrastructureError, isInfrastructureMessage } from '@cc/shared/unavailable.ts';
import { DEFAULT_DEFERRAL, deferOnOutage, type DeferralSettings } from './reliability/deferral.ts';
import { retryUntilDone } from './reliability/retry-until-done.ts';

export interface WorkerHostOptions<Q extends QueueName> {
  redisUrl: string;
  prefix: string;
  queues: readonly Q[];
  handlers: Handlers<Q>;
  concurrency?: number;
  /** Default: silent (tests). */
  logger?: Logger;
  installSchedules?: boolean;
  /** Stalled-job settings (docs/decisions.md, "Faults"); defaults: the config defaults. */
  stalled?: StalledSettings;
  /**
   * Called when a job ended for good (completed: before BullMQ removes it; or failed on its last attempt): closes its
   * outbox rows. Retried while it fails (the database may be away right then), so a finished job is not run again.
   */
  onJobDone?: (queue: QueueName, jobId: string, error?: string) => Promise<void>;
  /** How long a job waits when PostgreSQL or Redis was away (reliability/deferral.ts); no attempt is spent. */
  deferral?: DeferralSettings;
}

export interface StalledSettings {
  /** A job's lock lasts this long; BullMQ renews it every half of it while the job runs (lock renewal). */
  lockDurationMs: number;
  /** How often the worker looks for jobs whose lock expired (their worker died) and puts them back. */
  stalledIntervalMs: number;
  /** Times a job may be taken back from a dead worker before it fails; the handlers are idempotent. */
  maxStalledCount: number;
}

export const DEFAULT_STALLED: StalledSettings = { lockDurationMs: 30_000, stalledIntervalMs: 15_000, maxStalledCount: 5 };

/**
 * Queues whose jobs run for minutes and keep the event loop busy in long stretches (parsing, COPY, rollups,
 * provisioning polls): their lock lasts twice as long, so a slow renewal never hands a live job to a second worker.
 */
const LONG_QUEUES: ReadonlySet<QueueName> = new Set(['billing-ingest', 'provisioning', 'inventory-sync']);

export function stalledOptions(queue: QueueName, s: StalledSettings) {
  const lockDuration = LONG_QUEUES.has(queue) ? s.lockDurationMs * 2 : s.lockDurationMs;
  return { lockDuration, lockRenewTime: Math.floor(lockDuration / 2), stalledInterval: s.stalledIntervalMs, maxStalledCount: s.maxStalledCount };
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
  // reason: 'work' (the job's own failure), 'bad-payload', 'stalled' (its worker died too often), 'infrastructure'
  // (a final failure caused by an outage: its outbox row is re-queued).
  const failures = new Counter({ name: 'cc_job_failures_total', help: 'Failed job attempts', labelNames: ['queue', 'final', 'reason'], registers: [metrics] });
  const deferrals = new Counter({
    name: 'cc_job_deferrals_total',
    help: 'Job attempts put back for later without counting, because PostgreSQL or Redis was away',
    labelNames: ['queue'],
    registers: [metrics],
  });
  const deferral = opts.deferral ?? DEFAULT_DEFERRAL;
  let closing = false;

  const connection = redisConnection(opts.redisUrl, 'worker');
  connection.on('error', (err) => log.warn({ err }, 'redis connection error'));

  function startWorker<K extends Q>(name: K, handler: Handler<K>) {
    // Closes the job's outbox rows; retried while the database is away (never throws).
    const done = async (jobId: string | undefined, error?: string): Promise<void> => {
      if (!jobId || !opts.onJobDone) return;
      const close = opts.onJobDone;
      await retryUntilDone(() => close(name, jobId, error), { isClosing: () => closing }).catch((err: unknown) =>
        log.warn({ err, queue: name, jobId }, 'could not close outbox rows; the reconciler will'),
      );
    };
    // The Worker's payload type is the registry's claim for this queue, checked on every job before the handler runs.
    const worker = new Worker<JobOf<K>['data'], unknown, JobOf<K>['name']>(
      name,
      async (job, token) => {
        const problem = payloadError(name, job.data);
        if (problem) throw new UnrecoverableError(`bad ${name} payload: ${problem}`);
        const end = duration.startTimer({ queue: name });
        let result: unknown;
        try {
          result = await handler(job);
          end({ outcome: 'completed' });
        } catch (err) {
          if (err instanceof UnrecoverableError) {
            end({ outcome: 'failed' });
            throw err;
          }
          const delay = await deferOnOutage(job, token, err, deferral);
          if (delay !== null) {
            end({ outcome: 'deferred' });
            deferrals.inc({ queue: name });
            log.debug({ queue: name, jobId: job.id, delay, err: err instanceof Error ? err.message : String(err) }, 'job deferred: a dependency is away');
            throw new DelayedError();
          }
          end({ outcome: 'failed' });
          throw err;
        }
        // Before BullMQ removes the completed job: the reconciler must never find a finished job gone from Redis with
        // its outbox row still open, which it would take for one Redis lost and run again.
        await done(job.id);
        return result;
      },
      { connection, prefix: queuePrefix(opts.prefix, name), concurrency: opts.concurrency ?? 4, autorun: true, ...stalledOptions(name, opts.stalled ?? DEFAULT_STALLED) },
    );
    worker.on('error', (err) => log.error({ err }, `worker ${name} error`));
    worker.on('stalled', (jobId) => log.warn({ queue: name, jobId }, 'job stalled: its lock lapsed; taken back'));
    worker.on('failed', (job, err) => {
      const stalled = /stalled more than allowable limit/.test(err.message);
      const final = !job || err instanceof UnrecoverableError || stalled || job.attemptsMade >= (job.opts.attempts ?? 1);
      const reason = /^bad \S+ payload/.test(err.message) ? 'bad-payload' : stalled ? 'stalled' : isInfrastructureError(err) || isInfrastructureMessage(err.message) ? 'infrastructure' : 'work';
      failures.inc({ queue: name, final: String(final), reason });
      if (final) {
        // Kept in the failed set (removeOnFail: false) with its reason: /ops/queues shows it; its outbox row keeps it too.
        log.error({ queue: name, jobId: job?.id, reason, err: err.message }, 'job failed');
        void done(job?.id, err.message);
      }
    });
    return worker;
  }
  const workers = opts.queues.map((name) => startWorker(name, opts.handlers[name]));

  if (opts.installSchedules) {
    // Installed at start; the reconciler (reliability/reconciler.ts) re-installs them periodically.
    for (const s of SCHEDULES.filter((s) => (opts.queues as readonly QueueName[]).includes(s.queue))) {
      const queue = new Queue(s.queue, { connection, prefix: queuePrefix(opts.prefix, s.queue) });
      await queue.upsertJobScheduler(s.id, { pattern: s.pattern, tz: SCHEDULE_TIME_ZONE }, { name: s.name, data: s.data });
      await queue.close();
    }
  }
  await Promise.all(workers.map((w) => w.waitUntilReady()));
  log.info({ queues: opts.queues }, 'workers started');

  return {
    metrics,
    async close() {
      closing = true;
      await Promise.all(workers.map((w) => w.close()));
      connection.disconnect();
    },
  };
}
