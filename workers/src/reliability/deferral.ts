/**
 * Outages do not spend attempts. A job whose attempt failed because PostgreSQL or Redis was away (a refused or cut
 * connection, a database refusing connections or writes: `isInfrastructureError`) did not fail at its own work: the
 * worker moves it back to `delayed` without counting the attempt (BullMQ `moveToDelayed` skips the attempt; the
 * processor then throws `DelayedError`). The delay doubles from `baseMs` up to `maxMs` while the outage lasts, so
 * an outage of any length ends with the job run, and a job's 5 attempts count only failures of the work.
 */
import type { Job } from 'bullmq';
import { isInfrastructureError } from '@cc/shared/unavailable.ts';

export interface DeferralSettings {
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_DEFERRAL: DeferralSettings = { baseMs: 1_000, maxMs: 15_000 };

/**
 * The next wait: `baseMs` doubled for each earlier run of the job that was neither completed nor counted (BullMQ
 * counts every start in `attemptsStarted` and only the counted failures in `attemptsMade`; a job's own delay field
 * is reset when it leaves the delayed set, so it cannot carry this), at most `maxMs`, with ±20 % jitter so the jobs
 * an outage stopped together do not all knock at once when it ends.
 */
export function deferralDelay(job: Pick<Job, 'attemptsStarted' | 'attemptsMade'>, s: DeferralSettings, random = Math.random): number {
  const uncounted = Math.max(0, (job.attemptsStarted ?? 1) - (job.attemptsMade ?? 0) - 1);
  const next = Math.min(s.maxMs, s.baseMs * 2 ** Math.min(uncounted, 30));
  return Math.round(next * (0.8 + 0.4 * random()));
}

/**
 * When `err` is an outage, puts the job back for later and resolves to the delay (the processor then throws
 * `DelayedError`); resolves to null when `err` is the job's own failure, which counts as an attempt. When the move
 * itself fails (Redis gone too), the original error is thrown: the job's lock then lapses and the stalled check
 * puts it back, again without an attempt.
 */
export async function deferOnOutage(job: Pick<Job, 'attemptsStarted' | 'attemptsMade' | 'moveToDelayed'>, token: string | undefined, err: unknown, s: DeferralSettings): Promise<number | null> {
  if (!isInfrastructureError(err)) return null;
  const delay = deferralDelay(job, s);
  try {
    await job.moveToDelayed(Date.now() + delay, token);
  } catch {
    throw err;
  }
  return delay;
}
