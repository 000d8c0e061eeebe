import type { JobFor } from '@cc/shared/queues.ts';
import { purgeExpiredRevocations } from '@cc/shared/db/maintenance.ts';
import type { DepsOf } from '../deps.ts';

/** maintenance.purge: nightly housekeeping; deleting what is already expired is naturally idempotent. */
export function maintenanceHandler(deps: DepsOf<'maintenance'>) {
  return async (_job: JobFor<'maintenance'>) => ({ revocationsPurged: await purgeExpiredRevocations(deps.pool) });
}
