import { UnrecoverableError } from 'bullmq';
import type { JobFor } from '@cc/shared/queues.ts';
import { BadIngestCommand } from '@cc/shared/commands/billing-ingest.ts';
import type { DepsOf } from '../deps.ts';
import { ingestCommand } from '../billing-ingest/command.ts';
import { IngestRejected, type IngestProgress } from '../billing-ingest/ingest.ts';
import { afterIngest } from '../billing-ingest/after-ingest.ts';
import { isDataError } from '../billing-ingest/copy-errors.ts';
import { exportSyncJob, isExportSource } from '../billing-exports/job.ts';

/** Reading is 0–90 % of a job, replacing the slices and rollups the last 10 %. */
export function progressPercent(p: IngestProgress): number {
  if (p.phase === 'done') return 100;
  if (p.phase === 'replacing') return 90;
  return Math.floor((p.fraction ?? 0) * 90);
}

/**
 * billing.ingest: loads a source into cost_line by (account, day) slice replacement, so running it
 * twice, or retrying after a crash, leaves the same totals. A bad file or command is unrecoverable
 * (retrying cannot fix it); database or network failures are retried with the queue's backoff.
 */
export function billingIngestHandler(deps: DepsOf<'billing-ingest'>) {
  return async (job: JobFor<'billing-ingest'>) => {
    const cmd = job.data;
    if (isExportSource(cmd.source)) return exportSyncJob(deps, cmd);
    try {
      let last = -1;
      const summary = await ingestCommand(deps.pool, cmd, {
        sources: deps.billingSources,
        onProgress: async (p) => {
          const pct = progressPercent(p);
          // Progress is for bull-board only: a Redis hiccup mid-COPY must not fail a load that PostgreSQL is taking.
          if (pct !== last) await job.updateProgress((last = pct)).catch(() => undefined);
        },
      });
      await afterIngest(deps, cmd);
      return summary;
    } catch (err) {
      if (err instanceof BadIngestCommand) throw new UnrecoverableError(err.message);
      if (err instanceof IngestRejected) {
        // The full list (first 100) is on the ingest_batch row; the job keeps a readable summary.
        const lines = err.errors.slice(0, 10).map((e) => `line ${e.line}: ${e.reason}`);
        throw new UnrecoverableError(`file rejected, nothing loaded (batch ${err.batchId}, ${err.errorCount} bad lines): ${lines.join('; ')}`);
      }
      // A value PostgreSQL refuses outside COPY fails the same way on every attempt; only transient errors retry.
      if (isDataError(err)) throw new UnrecoverableError(`source refused by the database, nothing loaded: ${(err as Error).message}`);
      throw err;
    }
  };
}
