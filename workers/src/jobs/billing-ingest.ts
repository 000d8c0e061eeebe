import { UnrecoverableError, type Job } from 'bullmq';
import type { Pool } from '@cc/shared/db/pool.ts';
import type { QueuePayload } from '@cc/shared/queues.ts';
import type { BillingSourceDeps } from '../adapters/billing/index.ts';
import type { BillingCache } from '../billing/cache.ts';
import type { Enqueue } from '../worker-host.ts';
import { ingestCommand, BadIngestCommand, IngestRejected, type IngestProgress } from '../billing/ingest.ts';

export interface BillingIngestDeps {
  pool: Pool;
  billingSources?: BillingSourceDeps;
  /** Invalidates the api's cached chart answers of the account once its data changed. */
  billingCache?: Pick<BillingCache, 'invalidate'>;
  /** Enqueues the follow-up anomaly detection and alert evaluation. */
  enqueue?: Enqueue;
}

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
export function billingIngestHandler(deps: BillingIngestDeps) {
  return async (job: Job<QueuePayload<'billing-ingest'>>) => {
    const cmd = job.data;
    try {
      let last = -1;
      const summary = await ingestCommand(deps.pool, cmd, {
        sources: deps.billingSources,
        onProgress: async (p) => {
          const pct = progressPercent(p);
          if (pct !== last) await job.updateProgress((last = pct));
        },
      });
      // The data is committed: cached charts of the account are stale now, and anomalies and alert quotas must be
      // judged on the new figures. A failure here retries the job, and the re-ingest replaces the same slices.
      await deps.billingCache?.invalidate(cmd.billing_account_id);
      await deps.enqueue?.('anomaly-detect', { customer_id: cmd.customer_id });
      await deps.enqueue?.('alert-evaluate', { customer_id: cmd.customer_id, billing_account_id: cmd.billing_account_id });
      return summary;
    } catch (err) {
      if (err instanceof BadIngestCommand) throw new UnrecoverableError(err.message);
      if (err instanceof IngestRejected) {
        // The full list (first 100) is on the ingest_batch row; the job keeps a readable summary.
        const lines = err.errors.slice(0, 10).map((e) => `line ${e.line}: ${e.reason}`);
        throw new UnrecoverableError(`file rejected, nothing loaded (batch ${err.batchId}, ${err.errorCount} bad lines): ${lines.join('; ')}`);
      }
      throw err;
    }
  };
}
