import type { JobFor } from '@cc/shared/queues.ts';
import { customersWithClaimWork } from '@cc/shared/db/inventory/claim-work.ts';
import type { DepsOf } from '../deps.ts';
import { sendClaims } from '../inventory/claims.ts';

/** inventory.claims: sends the due recommendation state changes of one customer, or of every customer with some due. */
export function inventoryClaimsHandler(deps: DepsOf<'inventory-claims'>) {
  return async (job: JobFor<'inventory-claims'>): Promise<unknown> => {
    const customers = job.data.customer_id ? [job.data.customer_id] : await customersWithClaimWork(deps.pool);
    const results: Record<string, unknown> = {};
    for (const c of customers) results[c] = await sendClaims({ pool: deps.pool, source: deps.inventorySource }, c);
    return results;
  };
}
