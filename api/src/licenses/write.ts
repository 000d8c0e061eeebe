/**
 * A customer's changes to its Workspace licenses (spec 001 §4, §7): create a license, change its settings, place an
 * order. Each function checks the form's rules, writes, and records the sync the change owes; it throws the api's
 * errors (400 with the field's message, 404, 409, 502), so the route only validates, calls and replies.
 */
import type { Pool } from '@cc/shared/db/pool.ts';
import type { Enqueue } from '@cc/shared/producer.ts';
import type { TenantCustomer } from '@cc/shared/db/customers.ts';
import { asActor, findLicense, insertLicense, updateLicenseSettings, type LicenseRow } from '@cc/shared/db/licenses/licenses.ts';
import { insertOrder, type OrderRow } from '@cc/shared/db/licenses/orders.ts';
import { createLicenseErrors, digits, NEW_ORDER_DEFAULT, newOrderError, orderAmountError, thresholdError } from '@cc/shared/licenses/rules.ts';
import { WorkspaceError, volumeAvailable, type Workspace } from '@cc/shared/ports/workspace.ts';
import type { LicenseCreateBody, LicenseUpdateBody, OrderCreateBody } from '@cc/shared/schemas/licenses.ts';
import type { Static } from '@sinclair/typebox';
import type { OutboxTransactions } from '../plugins/external/queues.ts';
import { errors } from '../errors.ts';

export interface LicenseWriter {
  pg: Pool;
  outbox: OutboxTransactions;
  workspace: Workspace;
  /** The signed-in user making the change (recorded as the history's actor, and as an order's order_by). */
  actor: string;
}

/** The first rule broken, as `{field}: {message}` (the screens show the message beside the field). */
function firstError(found: Record<string, string | null | undefined>): void {
  const entry = Object.entries(found).find(([, m]) => m);
  if (entry) throw new errors.badRequest(`${entry[0]}: ${entry[1]}`);
}

// The sync a change owes is an outbox row in the change's own transaction: both or neither, whatever crashes.
const syncLater = (enqueue: Enqueue, customerId: string) => enqueue('license', 'license.sync', { customer_id: customerId });

/** A new license for one of the customer's Workspace subscriptions, its volume read from Google. */
export async function createLicense(w: LicenseWriter, customer: TenantCustomer, body: Static<typeof LicenseCreateBody>): Promise<LicenseRow> {
  firstError(createLicenseErrors(body));
  const skuId = String(digits(body.sku_id));
  let seats;
  try {
    seats = (await w.workspace.listSeats(customer.domain_name)).find((s) => s.sku_id === skuId);
  } catch (err) {
    if (err instanceof WorkspaceError) throw new errors.providerFailed(err.message);
    throw err;
  }
  if (!seats) throw new errors.badRequest(`sku_id: ${customer.domain_name} has no Workspace subscription for SKU ${skuId}`);
  const threshold = digits(body.threshold)!;
  const newOrder = digits(body.new_order)!;
  firstError({ threshold: thresholdError(threshold, seats.total), new_order: newOrderError(newOrder, seats.total) });
  const created = await w.outbox.transaction(async (tx, enqueue) => {
    await asActor(tx, w.actor);
    const license = await insertLicense(tx, {
      customer_id: customer.customer_id,
      sku_id: skuId,
      sku_name: seats.sku_name,
      volume_total: seats.total,
      volume_available: volumeAvailable(seats),
      threshold,
      auto_order: body.auto_order ?? false,
      new_order: newOrder,
    });
    if (license) await syncLater(enqueue, customer.customer_id);
    return license;
  });
  if (!created) throw new errors.conflict(`sku_id: a license for SKU ${skuId} already exists`);
  return created;
}

/** New settings (auto_order, threshold, new_order) of an existing license, checked against its volume. */
export async function updateLicense(w: LicenseWriter, customerId: string, skuId: string, body: Static<typeof LicenseUpdateBody>): Promise<LicenseRow> {
  const updated = await w.outbox.transaction(async (tx, enqueue) => {
    const license = await findLicense(tx, customerId, skuId, { lock: true });
    if (!license) throw new errors.notFound('License not found');
    // new_order applies only while auto order is on (spec 001 §4); with it off the stored value returns to 1.
    firstError({
      threshold: thresholdError(body.threshold, license.volume_total),
      new_order: body.auto_order ? newOrderError(body.new_order, license.volume_total) : null,
    });
    await asActor(tx, w.actor);
    const changed = await updateLicenseSettings(tx, customerId, license.sku_id, {
      threshold: digits(body.threshold)!,
      auto_order: body.auto_order,
      new_order: body.auto_order ? digits(body.new_order)! : NEW_ORDER_DEFAULT,
    });
    await syncLater(enqueue, customerId);
    return changed;
  });
  return updated!;
}

/** An order of more seats for one of the customer's licenses, Pending until an admin decides. */
export async function placeOrder(w: LicenseWriter, customer: TenantCustomer, body: Static<typeof OrderCreateBody>): Promise<OrderRow> {
  // The body's customer must be the domain's: naming another is refused like any other tenant.
  if (body.customer_id !== customer.customer_id) throw new errors.customerNotFound();
  const license = await findLicense(w.pg, customer.customer_id, String(body.sku_id));
  if (!license) throw new errors.notFound('License not found');
  firstError({ order_amount: orderAmountError(body.order_amount, license.volume_total) });
  return insertOrder(w.pg, {
    customer_id: customer.customer_id,
    sku_id: license.sku_id,
    sku_name: license.sku_name,
    order_amount: digits(body.order_amount)!,
    order_by: w.actor,
    comment: body.comment ?? '',
  });
}
