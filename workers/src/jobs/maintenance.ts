import type { Job } from 'bullmq';
import type { Pool } from '@cc/shared/db/pool.ts';
import type { QueuePayload } from '@cc/shared/queues.ts';
import { purgeExpiredRevocations } from '@cc/shared/db/maintenance.ts';

/** maintenance.purge: nightly housekeeping; deleting what is already expired is naturally idempotent. */
export function maintenanceHandler(deps: { pool: Pool }) {
  return async (_job: Job<QueuePayload<'maintenance'>>) => ({ revocationsPurged: await purgeExpiredRevocations(deps.pool) });
}
