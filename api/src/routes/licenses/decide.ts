import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { recordChannelEvent } from '@cc/shared/notification-channels/queue.ts';
import { licenseOrderEvent } from '@cc/shared/notification-channels/notices.ts';
import type { Workspace } from '@cc/shared/ports/workspace.ts';
import { ErrorBody, withErrors } from '@cc/shared/schemas/common.ts';
import { LicenseOrder, OrderDecisionParams } from '@cc/shared/schemas/licenses.ts';
import { errors } from '../../errors.ts';
import { approveOrder, rejectOrder } from '../../licenses/decide.ts';

/** A provider admin approves (true: the seats are added at Google) or rejects (false) an order. */
export const licenseDecisions: FastifyPluginAsyncTypebox<{ workspace: Workspace }> = async (app, { workspace }) => {
  app.post(
    '/v1/licenses/orders/:domain/:order_id/:approve',
    {
      config: { permission: 'admin', tenant: { domain: 'domain' }, feature: 'workspace_license' },
      schema: {
        tags: ['licenses'],
        summary: 'Approve (true) or reject (false) an order; approval adds the seats at Google exactly once',
        params: OrderDecisionParams,
        response: withErrors({ 200: LicenseOrder, 409: ErrorBody, 502: ErrorBody }),
      },
    },
    async (req) => {
      const customer = req.customer;
      const caller = { customerId: customer.customer_id, domain: customer.domain_name, admin: req.auth!.email };
      const decision = req.params.approve === 'true' ? await approveOrder(app.pg, workspace, caller, req.params.order_id) : await rejectOrder(app.pg, caller, req.params.order_id);
      switch (decision.outcome) {
        case 'not-found':
          throw new errors.notFound('Order not found');
        case 'conflict':
          throw new errors.conflict(`The order is ${decision.order.status}`);
        case 'provider-failed':
          throw new errors.providerFailed(decision.error);
        case 'done':
          // The seats are added: the sync is recorded durably (no 503 for a Redis outage after the decision stood).
          await app.outbox.transaction(async (tx, enqueue) => {
            if (req.params.approve === 'true') await enqueue('license', 'license.sync', { customer_id: customer.customer_id });
            // the customer's notification channels hear of the decision (once per order and status)
            await recordChannelEvent(tx, enqueue, licenseOrderEvent('decided', decision.order, customer.customer_name, app.config.PUBLIC_URL));
          });
          return decision.order;
      }
    },
  );
};
