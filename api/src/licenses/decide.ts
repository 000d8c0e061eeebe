/**
 * A provider admin's decision on a license order (docs/decisions-licenses.md, "Order statuses"). Approval fixes the
 * absolute seat target in the database before Google is called, so a retry (a crash, a Failed order approved again,
 * two admins at once) sets the same number and the seats are added exactly once.
 */
import { withTransaction, type Pool } from '@cc/shared/db/pool.ts';
import { applySeats, asActor } from '@cc/shared/db/licenses/licenses.ts';
import { findOrder, setOrderStatus, type OrderRow } from '@cc/shared/db/licenses/orders.ts';
import { WorkspaceError, type Workspace } from '@cc/shared/ports/workspace.ts';

export type Decision =
  | { outcome: 'done'; order: OrderRow }
  | { outcome: 'not-found' }
  | { outcome: 'conflict'; order: OrderRow }
  | { outcome: 'provider-failed'; order: OrderRow; error: string };

interface Caller {
  customerId: string;
  domain: string;
  admin: string;
}

export async function rejectOrder(pool: Pool, c: Caller, orderId: string): Promise<Decision> {
  return withTransaction(pool, async (tx) => {
    await asActor(tx, c.admin);
    const order = await findOrder(tx, c.customerId, orderId, { lock: true });
    if (!order) return { outcome: 'not-found' };
    if (order.status === 'Rejected') return { outcome: 'done', order };
    if (order.status !== 'Pending' && order.status !== 'Failed') return { outcome: 'conflict', order };
    return { outcome: 'done', order: await setOrderStatus(tx, orderId, { status: 'Rejected', decided_by: c.admin }) };
  });
}

export async function approveOrder(pool: Pool, workspace: Workspace, c: Caller, orderId: string): Promise<Decision> {
  // 1. Fix the target (once) and mark the order Approved, under the order's row lock.
  const step1 = await withTransaction(pool, async (tx): Promise<Decision | { outcome: 'call'; order: OrderRow; target: number }> => {
    await asActor(tx, c.admin);
    const order = await findOrder(tx, c.customerId, orderId, { lock: true });
    if (!order) return { outcome: 'not-found' };
    if (order.status === 'Fulfilled') return { outcome: 'done', order };
    if (order.status === 'Rejected') return { outcome: 'conflict', order };
    let target = order.seats_target;
    if (target === null) {
      const seats = (await workspace.listSeats(c.domain)).find((s) => s.sku_id === order.sku_id);
      if (!seats) throw new WorkspaceError(`Domain ${c.domain} has no subscription for SKU ${order.sku_id}`, false);
      target = seats.total + order.order_amount;
    }
    const approved = await setOrderStatus(tx, orderId, { status: 'Approved', decided_by: c.admin, seats_target: target });
    return { outcome: 'call', order: approved, target };
  }).catch((err: unknown) => {
    if (!(err instanceof WorkspaceError)) throw err;
    return { outcome: 'read-failed' as const, error: err.message };
  });
  if (step1.outcome === 'read-failed') return failed(pool, c, orderId, step1.error);
  if (step1.outcome !== 'call') return step1;

  // 2. Google, with the absolute number: a repeat finds the seats already there.
  let seats;
  try {
    seats = await workspace.ensureSeats(c.domain, step1.order.sku_id, step1.target);
  } catch (err) {
    if (!(err instanceof WorkspaceError)) throw err;
    return failed(pool, c, orderId, err.message);
  }

  // 3. Record it; a concurrent approval may have recorded it first.
  return withTransaction(pool, async (tx) => {
    await asActor(tx, c.admin);
    const order = (await findOrder(tx, c.customerId, orderId, { lock: true }))!;
    await applySeats(tx, c.customerId, seats);
    if (order.status === 'Fulfilled') return { outcome: 'done', order };
    return { outcome: 'done', order: await setOrderStatus(tx, orderId, { status: 'Fulfilled' }) };
  });
}

async function failed(pool: Pool, c: Caller, orderId: string, error: string): Promise<Decision> {
  return withTransaction(pool, async (tx) => {
    await asActor(tx, c.admin);
    const order = (await findOrder(tx, c.customerId, orderId, { lock: true }))!;
    // Fulfilled meanwhile (another approval got through): nothing failed.
    if (order.status === 'Fulfilled') return { outcome: 'done', order };
    return { outcome: 'provider-failed', order: await setOrderStatus(tx, orderId, { status: 'Failed', decided_by: c.admin, error }), error };
  });
}
