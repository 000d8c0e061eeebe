import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Enqueue } from '@cc/shared/producer.ts';
import { asActor, findLicense, insertLicense, updateLicenseSettings } from '@cc/shared/db/licenses/licenses.ts';
import { insertOrder } from '@cc/shared/db/licenses/orders.ts';
import { createLicenseErrors, digits, NEW_ORDER_DEFAULT, newOrderError, orderAmountError, thresholdError } from '@cc/shared/licenses/rules.ts';
import { WorkspaceError, volumeAvailable, type Workspace } from '@cc/shared/ports/workspace.ts';
import { ErrorBody, withErrors } from '@cc/shared/schemas/common.ts';
import { DomainParams, License, LicenseCreateBody, LicenseOrder, LicenseParams, LicenseUpdateBody, OrderCreateBody } from '@cc/shared/schemas/licenses.ts';
import { errors } from '../../errors.ts';
import { assertWriter, licensedCustomer } from './guards.ts';

/** The first rule broken, as `{field}: {message}` (the screens show the message beside the field). */
function firstError(found: Record<string, string | null | undefined>): void {
  const entry = Object.entries(found).find(([, m]) => m);
  if (entry) throw new errors.badRequest(`${entry[0]}: ${entry[1]}`);
}

/** Create and update a license, place an order (spec 001 §7). Each change is followed by a sync of the customer. */
export const licenseWrites: FastifyPluginAsyncTypebox<{ workspace: Workspace }> = async (app, { workspace }) => {
  // The sync a change owes is an outbox row in the change's own transaction: both or neither, whatever crashes.
  const syncLater = (enqueue: Enqueue, customerId: string) => enqueue('license', 'license.sync', { customer_id: customerId });

  app.put(
    '/v1/licenses/:domain',
    {
      config: { permission: 'authenticated', tenant: { domain: 'domain' } },
      schema: {
        tags: ['licenses'],
        summary: 'Create a license: sku_id, threshold, auto_order, new_order',
        params: DomainParams,
        body: LicenseCreateBody,
        response: withErrors({ 201: License, 409: ErrorBody, 502: ErrorBody }),
      },
    },
    async (req, reply) => {
      assertWriter(req);
      const customer = licensedCustomer(req);
      firstError(createLicenseErrors(req.body));
      const skuId = String(digits(req.body.sku_id));
      let seats;
      try {
        seats = (await workspace.listSeats(customer.domain_name)).find((s) => s.sku_id === skuId);
      } catch (err) {
        if (err instanceof WorkspaceError) throw new errors.providerFailed(err.message);
        throw err;
      }
      if (!seats) throw new errors.badRequest(`sku_id: ${customer.domain_name} has no Workspace subscription for SKU ${skuId}`);
      const threshold = digits(req.body.threshold)!;
      const newOrder = digits(req.body.new_order)!;
      firstError({ threshold: thresholdError(threshold, seats.total), new_order: newOrderError(newOrder, seats.total) });
      const created = await app.outbox.transaction(async (tx, enqueue) => {
        await asActor(tx, req.auth!.email);
        const license = await insertLicense(tx, {
          customer_id: customer.customer_id,
          sku_id: skuId,
          sku_name: seats.sku_name,
          volume_total: seats.total,
          volume_available: volumeAvailable(seats),
          threshold,
          auto_order: req.body.auto_order ?? false,
          new_order: newOrder,
        });
        if (license) await syncLater(enqueue, customer.customer_id);
        return license;
      });
      if (!created) throw new errors.conflict(`sku_id: a license for SKU ${skuId} already exists`);
      return reply.code(201).send(created);
    },
  );

  app.post(
    '/v1/licenses/:domain/:sku_id/',
    {
      config: { permission: 'authenticated', tenant: { domain: 'domain' } },
      schema: {
        tags: ['licenses'],
        summary: 'Update a license: auto_order, threshold, new_order',
        params: LicenseParams,
        body: LicenseUpdateBody,
        response: withErrors({ 200: License }),
      },
    },
    async (req) => {
      assertWriter(req);
      const customer = licensedCustomer(req);
      const updated = await app.outbox.transaction(async (tx, enqueue) => {
        const license = await findLicense(tx, customer.customer_id, req.params.sku_id, { lock: true });
        if (!license) throw new errors.notFound('License not found');
        // new_order applies only while auto order is on (spec 001 §4); with it off the stored value returns to 1.
        firstError({
          threshold: thresholdError(req.body.threshold, license.volume_total),
          new_order: req.body.auto_order ? newOrderError(req.body.new_order, license.volume_total) : null,
        });
        await asActor(tx, req.auth!.email);
        const changed = await updateLicenseSettings(tx, customer.customer_id, license.sku_id, {
          threshold: digits(req.body.threshold)!,
          auto_order: req.body.auto_order,
          new_order: req.body.auto_order ? digits(req.body.new_order)! : NEW_ORDER_DEFAULT,
        });
        await syncLater(enqueue, customer.customer_id);
        return changed;
      });
      return updated!;
    },
  );

  app.put(
    '/v1/licenses/orders/:domain',
    {
      config: { permission: 'authenticated', tenant: { domain: 'domain' } },
      schema: {
        tags: ['licenses'],
        summary: 'Place an order: the license’s sku_id plus order_amount, comment, customer_id (order_by is the caller)',
        params: DomainParams,
        body: OrderCreateBody,
        response: withErrors({ 201: LicenseOrder }),
      },
    },
    async (req, reply) => {
      assertWriter(req);
      const customer = licensedCustomer(req);
      // The body's customer must be the domain's: naming another is refused like any other tenant.
      if (req.body.customer_id !== customer.customer_id) throw new errors.customerNotFound();
      const license = await findLicense(app.pg, customer.customer_id, String(req.body.sku_id));
      if (!license) throw new errors.notFound('License not found');
      firstError({ order_amount: orderAmountError(req.body.order_amount, license.volume_total) });
      const order = await insertOrder(app.pg, {
        customer_id: customer.customer_id,
        sku_id: license.sku_id,
        sku_name: license.sku_name,
        order_amount: digits(req.body.order_amount)!,
        order_by: req.auth!.email,
        comment: req.body.comment ?? '',
      });
      return reply.code(201).send(order);
    },
  );
};
