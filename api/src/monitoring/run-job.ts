/**
 * Initialize / Rebuild Dashboard wait for their job (spec 000 §8: a failure is shown with the server's detail), so the
 * api enqueues through the registry and listens for that job's outcome on the queue's event stream.
 */
import type { EventEmitter } from 'node:events';
import { QueueEvents } from 'bullmq';
import type { Producer } from '@cc/shared/producer.ts';
import { createRedis, queuePrefix } from '@cc/shared/redis.ts';
import { jobOptions } from '@cc/shared/queues.ts';
import type { MonitoringCommand } from '@cc/shared/commands/monitoring.ts';
import type { MonitoringRun } from '@cc/shared/schemas/monitoring.ts';

/** Long enough for a Grafana provisioning with its retries (about 15 s of back-off) on a slow Grafana. */
export const MONITORING_WAIT_MS = 120_000;

export class MonitoringRunError extends Error {
  constructor(
    readonly reason: 'failed' | 'no-worker' | 'timeout',
    message: string,
  ) {
    super(message);
    this.name = 'MonitoringRunError';
  }
}

export interface MonitoringJobs {
  /** Enqueues the run (or joins the one under way for the same customer and action) and waits for its outcome. */
  run(cmd: MonitoringCommand): Promise<MonitoringRun>;
  close(): Promise<void>;
}

export function monitoringJobs(producer: Producer, opts: { redisUrl: string; prefix: string; waitMs?: number }): MonitoringJobs {
  const queue = producer.queues.monitoring;
  const waitMs = opts.waitMs ?? MONITORING_WAIT_MS;
  // One listener per api process, opened at the first click: most api processes never run a monitoring job.
  let events: Promise<QueueEvents> | null = null;
  // Made here (not from a URL by BullMQ) so a Sentinel group or a Cluster works too; closed with the listener.
  const connection = () => createRedis(opts.redisUrl, { maxRetriesPerRequest: null });
  let opened: ReturnType<typeof connection> | null = null;
  const listening = () =>
    (events ??= (async () => {
      opened = connection();
      const e = new QueueEvents('monitoring', { connection: opened, prefix: queuePrefix(opts.prefix, 'monitoring') });
      await e.waitUntilReady();
      return e;
    })());

  /** Listens before the job is added, so an outcome that arrives at once is not missed. */
  function outcome(events: QueueEvents, jobId: string): { result: Promise<MonitoringRun>; cancel: () => void } {
    // QueueEvents also emits per-job events (`completed:{id}`), as BullMQ's own waitUntilFinished uses; its types omit them.
    const e = events as unknown as EventEmitter;
    let cancel = () => {};
    const result = new Promise<MonitoringRun>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        e.off(`completed:${jobId}`, onCompleted);
        e.off(`failed:${jobId}`, onFailed);
      };
      const onCompleted = (args: { returnvalue: unknown }) => {
        done();
        resolve((typeof args.returnvalue === 'string' ? JSON.parse(args.returnvalue) : args.returnvalue) as MonitoringRun);
      };
      const onFailed = (args: { failedReason: string }) => {
        done();
        reject(new MonitoringRunError('failed', args.failedReason || 'The monitoring job failed'));
      };
      const timer = setTimeout(() => {
        done();
        reject(new MonitoringRunError('timeout', 'The dashboard is still being set up; try again in a few minutes'));
      }, waitMs);
      e.on(`completed:${jobId}`, onCompleted);
      e.on(`failed:${jobId}`, onFailed);
      cancel = done;
    });
    return { result, cancel };
  }

  return {
    async run(cmd) {
      // Without a worker the job would wait unseen until one starts; say so now instead.
      if ((await queue.getWorkersCount()) === 0) throw new MonitoringRunError('no-worker', 'No worker is running the monitoring queue; try again later');
      const jobId = jobOptions('monitoring', cmd).jobId!;
      const { result, cancel } = outcome(await listening(), jobId);
      try {
        // A failed run keeps its job (and id) for inspection; a new click must start a new run, not read the old failure.
        const previous = await queue.getJob(jobId);
        if (previous && (await previous.isFailed())) await previous.remove();
        await producer.enqueue('monitoring', 'monitoring.provision', cmd);
      } catch (err) {
        cancel();
        throw err;
      }
      return result;
    },
    async close() {
      if (events) await (await events).close();
      opened?.disconnect();
    },
  };
}
