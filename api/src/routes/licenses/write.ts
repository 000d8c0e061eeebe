import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { recordChannelEvent } from '@cc/shared/notification-channels/queue.ts';
import { licenseOrderEvent } from '@cc/shared/notification-channels/notices.ts';
import type { FastifyRequest } from 'fastify';
import type { Workspace } from '@cc/shared/ports/workspace.ts';
import { ErrorBody, withErrors } from '@cc/shared/schemas/common.ts';
import { DomainParams, License, LicenseCreateBody, LicenseOrder, LicenseParams, LicenseUpdateBody, OrderCreateBody } from '@cc/shared/schemas/licenses.ts';
import { assertWriter } from '../../licenses/guards.ts';
import { createLicense, placeOrder, updateLicense, type LicenseWriter } from '../../licenses/write.ts';

/** Create and update a license, place an order (spec 001 §7); the rules and the sync each change owes: licenses/write.ts. */
export const licenseWrites: FastifyPluginAsyncTypebox<{ workspace: Workspace }> = async (app, { workspace }) => {
  const config = { permission: 'authenticated', tenant: { domain: 'domain' }, feature: 'workspace_license' } as const;
  const writer = (req: FastifyRequest): LicenseWriter => {
    assertWriter(req);
    return { pg: app.pg, outbox: app.outbox, workspace, actor: req.auth!.email };
  };

  app.put(
    '/v1/licenses/:domain',
    {
      config,
      schema: {
        tags: ['licenses'],
        summary: 'Create a license: sku_id, threshold, auto_order, new_order',
        params: DomainParams,
        body: LicenseCreateBody,
        response: withErrors({ 201: License, 409: ErrorBody, 502: ErrorBody }),
      },
    },
    async (req, reply) => reply.code(201).send(await createLicense(writer(req), req.customer, req.body)),
  );

  app.post(
    '/v1/licenses/:domain/:sku_id/',
    {
      config,
      schema: {
        tags: ['licenses'],
        summary: 'Update a license: auto_order, threshold, new_order',
        params: LicenseParams,
        body: LicenseUpdateBody,
        response: withErrors({ 200: License }),
      },
    },
    async (req) => updateLicense(writer(req), req.customer.customer_id, req.params.sku_id, req.body),
  );

  app.put(
    '/v1/licenses/orders/:domain',
    {
      config,
      schema: {
        tags: ['licenses'],
        summary: 'Place an order: the license’s sku_id plus order_amount, comment, customer_id (order_by is the caller)',
        params: DomainParams,
        body: OrderCreateBody,
        response: withErrors({ 201: LicenseOrder }),
      },
    },
    async (req, reply) => {
      const order = await placeOrder(writer(req), req.customer, req.body);
      // the customer's notification channels hear of the order (recorded durably; the order stands either way)
      await app.outbox.transaction((tx, enqueue) => recordChannelEvent(tx, enqueue, licenseOrderEvent('placed', order, req.customer.customer_name, app.config.PUBLIC_URL)));
      return reply.code(201).send(order);
    },
  );
};
