/**
 * Waiting for a queued job's outcome in tests. A completed job is removed at once (removeOnComplete), so looking it
 * up and then waiting on it (`getJob` → `waitUntilFinished`) races with the worker: the job can be gone before the
 * lookup ("job!" undefined) or before BullMQ checks it ("Missing key for job … isFinished"), as seen in clean-clone
 * runs. Outcomes are recorded from the queue's events from the start instead, and each wait takes the next outcome
 * of its job id not taken yet (a job id used twice, as an idempotency key is, has two).
 */
import type { Test } from 'tap';
import { QueueEvents } from 'bullmq';

type Outcome = { value: unknown } | { failed: string };

export type JobWaiter = (jobId: string, timeoutMs?: number) => Promise<unknown>;

/**
 * Starts recording the outcomes of `queue`'s jobs and returns a wait for one: resolves with the job's return value,
 * rejects with an Error carrying its failure reason (as `waitUntilFinished` does). Call before adding the jobs.
 */
export async function jobOutcomes(t: Test, queue: string, o: { redisUrl: string; prefix: string }): Promise<JobWaiter> {
  const outcomes = new Map<string, Outcome[]>();
  const waiting = new Map<string, () => void>();
  const record = (jobId: string, outcome: Outcome) => {
    outcomes.set(jobId, [...(outcomes.get(jobId) ?? []), outcome]);
    waiting.get(jobId)?.();
  };
  const parse = (v: unknown) => {
    try {
      return typeof v === 'string' ? JSON.parse(v) : v;
    } catch {
      return v;
    }
  };
  const events = new QueueEvents(queue, { connection: { url: o.redisUrl }, prefix: o.prefix });
  t.teardown(() => events.close());
  events.on('completed', ({ jobId, returnvalue }) => record(jobId, { value: parse(returnvalue) }));
  events.on('failed', ({ jobId, failedReason }) => record(jobId, { failed: failedReason }));
  await events.waitUntilReady();

  return async (jobId, timeoutMs = 60_000) => {
    if (!outcomes.get(jobId)?.length) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(jobId);
          reject(new Error(`${queue}/${jobId} did not finish within ${timeoutMs} ms`));
        }, timeoutMs);
        waiting.set(jobId, () => {
          clearTimeout(timer);
          waiting.delete(jobId);
          resolve();
        });
      });
    }
    const outcome = outcomes.get(jobId)!.shift()!;
    if ('failed' in outcome) throw new Error(outcome.failed);
    return outcome.value;
  };
}
