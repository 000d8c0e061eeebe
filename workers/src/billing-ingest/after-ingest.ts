/**
 * What a committed ingest makes stale or due. The job runs all of it; the `cc ingest` CLI (a backfill, possibly
 * without Redis) only invalidates the charts, and the seed queues one detection and evaluation for every customer.
 */
import type { ChartCache } from '@cc/shared/billing/chart-cache.ts';
import type { Enqueue } from '@cc/shared/producer.ts';

export interface AfterIngestDeps {
  chartCache: Pick<ChartCache, 'invalidate'>;
  enqueue: Enqueue;
}

/**
 * Cached charts of the account are stale now, and anomalies and alert quotas must be judged on the new figures.
 * Run after the commit: a failure here fails the job, whose retry re-ingests the same slices (nothing counted twice).
 */
export async function afterIngest(deps: AfterIngestDeps, target: { customer_id: string; billing_account_id: string }): Promise<void> {
  await deps.chartCache.invalidate(target.billing_account_id);
  await deps.enqueue('anomaly-detect', 'anomaly.detect', { customer_id: target.customer_id });
  await deps.enqueue('alert-evaluate', 'alert.evaluate', { customer_id: target.customer_id, billing_account_id: target.billing_account_id });
}
