import { UnrecoverableError } from 'bullmq';
import type { JobFor } from '@cc/shared/queues.ts';
import { inventoryCustomers } from '@cc/shared/db/inventory/claim-work.ts';
import { InventorySourceError } from '@cc/shared/ports/inventory.ts';
import { billingToday } from '@cc/shared/time.ts';
import type { DepsOf } from '../deps.ts';
import { InventoryCustomerNotFound, syncInventory } from '../inventory/sync.ts';

/**
 * inventory.sync: one customer's sync (sync.ts), or without a customer the nightly fan-out: one job per customer
 * with inventory on (and a service account when the source is real), each its own job so one customer's quota
 * or revoked grant does not hold up the others.
 */
export function inventorySyncHandler(deps: DepsOf<'inventory-sync'>) {
  return async (job: JobFor<'inventory-sync'>): Promise<unknown> => {
    const customerId = job.data.customer_id;
    if (!customerId) {
      const day = job.data.day ?? billingToday();
      const customers = await inventoryCustomers(deps.pool, deps.inventorySource.kind === 'real');
      for (const c of customers) await deps.enqueue('inventory-sync', 'inventory.sync', { customer_id: c, day });
      return { enqueued: customers.length, day };
    }
    try {
      return await syncInventory({ pool: deps.pool, source: deps.inventorySource }, customerId);
    } catch (err) {
      if (err instanceof InventoryCustomerNotFound) throw new UnrecoverableError(err.message);
      // A refusal (revoked grant, bad request) stays a refusal; quota and unavailability are worth the retries.
      if (err instanceof InventorySourceError && !err.retryable) throw new UnrecoverableError(err.message);
      throw err;
    }
  };
}
