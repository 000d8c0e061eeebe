/**
 * What a committed ingest makes stale or due. The commit itself makes it durable (migration 040): the ingest
 * batch's success bumps the account's data version, which every cached chart key carries, and writes the
 * anomaly-detect and alert-evaluate follow-ups into the outbox, which the workers' reconciler publishes. A crash
 * right after COMMIT therefore leaves neither stale charts nor missing follow-ups. What remains here is a courtesy:
 * the Redis version bump drops the account's cached answers at once for readers that key on it alone.
 */
import type { ChartCache } from '@cc/shared/billing/chart-cache.ts';

export interface AfterIngestDeps {
  chartCache: Pick<ChartCache, 'invalidate'>;
}

/** Never fails the job: the commit already carries everything that must happen (see above). */
export async function afterIngest(deps: AfterIngestDeps, target: { customer_id: string; billing_account_id: string }): Promise<void> {
  await deps.chartCache.invalidate(target.billing_account_id).catch(() => undefined);
}
