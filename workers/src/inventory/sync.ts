/**
 * One inventory sync of one customer: read every asset and recommendation through the inventory port, then
 * replace the stored snapshot in one transaction. Reading comes first and completely, so a failure anywhere
 * (quota, a revoked grant, a page that never ends) leaves the previous snapshot as it was and records the run
 * as failed. Not yet a registered job: the job registry is being reworked (docs/decisions-inventory.md).
 */
import type { Pool } from '@cc/shared/db/pool.ts';
import { findCustomer } from '@cc/shared/db/customers.ts';
import { failSyncRun, replaceSnapshot, startSyncRun } from '@cc/shared/db/inventory/snapshot.ts';
import type { InventoryScope, InventorySource } from '@cc/shared/ports/inventory.ts';

export interface InventorySyncDeps {
  pool: Pool;
  source: InventorySource;
}

export type InventorySyncResult =
  | { status: 'skipped'; reason: string }
  | { status: 'succeeded'; runId: string; assets: number; recommendations: number; added: number; removed: number; changed: number };

/** Thrown when the customer does not exist: retrying cannot help. */
export class InventoryCustomerNotFound extends Error {}

export async function syncInventory(deps: InventorySyncDeps, customerId: string): Promise<InventorySyncResult> {
  const customer = await findCustomer(deps.pool, customerId);
  if (!customer) throw new InventoryCustomerNotFound(`customer ${customerId} not found`);
  // Spec 001 §2.4: Inventory is enabled only with a service account; without one there is nothing to read as.
  if (!customer.inventory) return { status: 'skipped', reason: 'inventory is off for the customer' };
  if (deps.source.kind === 'real' && (!customer.gcp_service_account || !customer.service_account_email)) {
    return { status: 'skipped', reason: 'the customer has no service account' };
  }

  const scope: InventoryScope = { customerId, serviceAccountEmail: customer.service_account_email, currency: customer.billing_currency };
  const runId = await startSyncRun(deps.pool, customerId, deps.source.kind);
  try {
    const assets = await deps.source.listAssets(scope);
    const recommendations = await deps.source.listRecommendations(scope, assets);
    const summary = await replaceSnapshot(deps.pool, customerId, runId, { assets, recommendations });
    return { status: 'succeeded', runId, ...summary };
  } catch (err) {
    await failSyncRun(deps.pool, runId, (err as Error).message).catch(() => undefined);
    throw err;
  }
}
