import type { JobFor } from '@cc/shared/queues.ts';
import { purgeExpiredErrorLogs, purgeExpiredRevocations } from '@cc/shared/db/maintenance.ts';
import { requeueStalledProvisioning } from '@cc/shared/provisioning/requeue.ts';
import type { DepsOf } from '../deps.ts';

/**
 * maintenance.purge: housekeeping, naturally idempotent: deletes what is already expired (token revocations, old
 * sessions, screen crashes past ERROR_LOG_RETENTION_DAYS) and re-queues project requests whose provisioning job was
 * lost (the same deterministic job id, so a queued one is not added twice).
 */
export function maintenanceHandler(deps: DepsOf<'maintenance'>) {
  return async (_job: JobFor<'maintenance'>) => ({
    revocationsPurged: await purgeExpiredRevocations(deps.pool),
    errorLogPurged: await purgeExpiredErrorLogs(deps.pool, deps.errorLogRetentionDays),
    provisioningRequeued: (await requeueStalledProvisioning(deps.pool, deps.enqueue)).length,
  });
}
