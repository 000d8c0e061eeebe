/**
 * license.sync: the seats of every watched SKU from Workspace into `license`, then the automatic orders due. The
 * database decides what is due (placeDueAutoOrders: one per threshold crossing, none while one is pending), so a
 * run repeated or run twice at once places nothing more.
 */
import { withTransaction, type Pool } from '@cc/shared/db/pool.ts';
import { queueChannelEvent } from '@cc/shared/notification-channels/queue.ts';
import { licenseOrderEvent } from '@cc/shared/notification-channels/notices.ts';
import { applySeats, asActor, licenseCustomers } from '@cc/shared/db/licenses/licenses.ts';
import { listPendingAutoOrders, orderRecipients, placeDueAutoOrders } from '@cc/shared/db/licenses/orders.ts';
import { WorkspaceError, type Workspace } from '@cc/shared/ports/workspace.ts';
import type { Enqueue } from '@cc/shared/producer.ts';
import { licenseOrderNotice } from '../mail/templates/license-order.ts';

/** The order_by of automatic orders and the actor of synced seat changes in the history. */
export const AUTO_ORDER_BY = 'auto-order';
export const SYNC_ACTOR = 'license-sync';

export interface LicenseSyncDeps {
  pool: Pool;
  workspace: Workspace;
  enqueue: Enqueue;
  publicUrl: string;
}

export interface LicenseSyncResult {
  synced: string[];
  failed: { customer_id: string; error: string }[];
  ordered: string[];
}

export async function syncLicenses(deps: LicenseSyncDeps, customerId: string | null): Promise<LicenseSyncResult> {
  const result: LicenseSyncResult = { synced: [], failed: [], ordered: [] };
  let retry: WorkspaceError | null = null;
  for (const c of await licenseCustomers(deps.pool, customerId)) {
    try {
      const seats = await deps.workspace.listSeats(c.domain_name);
      await withTransaction(deps.pool, async (tx) => {
        await asActor(tx, SYNC_ACTOR);
        for (const s of seats) await applySeats(tx, c.customer_id, s);
      });
      result.synced.push(c.customer_id);
    } catch (err) {
      if (!(err instanceof WorkspaceError)) throw err;
      result.failed.push({ customer_id: c.customer_id, error: err.message });
      if (err.transient) retry = err;
    }
  }
  // Also for a customer whose sync failed: its last known seats still say whether an order is due.
  result.ordered = (await placeDueAutoOrders(deps.pool, customerId, AUTO_ORDER_BY)).map((o) => o.order_id);
  for (const o of await listPendingAutoOrders(deps.pool, customerId)) {
    const { customer_name, recipients } = await orderRecipients(deps.pool, o.customer_id);
    await queueChannelEvent(deps.pool, deps.enqueue, licenseOrderEvent('placed', o, customer_name, deps.publicUrl));
    if (recipients.length === 0) continue;
    await deps.enqueue('notify', 'notify.send', { to: recipients, ...licenseOrderNotice(o, customer_name, deps.publicUrl), key: `license-order-${o.order_id}` });
  }
  // A transient failure is retried by the queue; what was synced and ordered stays, and the rerun adds nothing twice.
  if (retry) throw retry;
  return result;
}
