import type { JobFor } from '@cc/shared/queues.ts';
import type { DepsOf } from '../deps.ts';
import { syncLicenses } from '../licenses/sync.ts';

/** license.sync: Workspace seats into the licenses of one customer (or all), then the automatic orders due. */
export function licenseHandler(deps: DepsOf<'license'>) {
  return async (job: JobFor<'license'>) => syncLicenses(deps, job.data.customer_id ?? null);
}
