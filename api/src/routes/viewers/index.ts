import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { withTransaction } from '@cc/shared/db/pool.ts';
import { addViewerFilter, findNonViewers, listViewers, removeViewerFilters } from '@cc/shared/db/viewers.ts';
import { refreshClaims } from '@cc/shared/db/users.ts';
import { ViewerChangeAnswer, ViewerFilterAddBody, ViewerList, ViewerParams, ViewerUserParams } from '@cc/shared/schemas/insights.ts';
import { withErrors } from '@cc/shared/schemas/common.ts';
import { errors } from '../../errors.ts';

/**
 * Billing viewers (spec 001 §2.9, §4, §7): customerViewer users of a customer and their project-label filters; the
 * screen needs the customer's billing_viewer flag (spec 000 §6, `feature`).
 * Claims carry the filters and are read from the database on every request, so each change refreshes the affected
 * users' stored claims in the same transaction: it applies to their very next request.
 */
const viewers: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/v1/viewers/:customer/',
    {
      config: { permission: 'alerts_read', tenant: { params: 'customer' }, feature: 'billing_viewer' },
      schema: { tags: ['viewers'], summary: 'Viewers of the customer and their project-label filters', params: ViewerParams, response: withErrors({ 200: ViewerList }) },
    },
    async (req) => {
      return listViewers(app.pg, req.customer.customer_id);
    },
  );

  app.post(
    '/v1/viewers/:customer/filters/',
    {
      config: { permission: 'alerts_create', tenant: { params: 'customer' }, feature: 'billing_viewer' },
      schema: {
        tags: ['viewers'],
        summary: 'Add a project-label filter to viewers',
        params: ViewerParams,
        body: ViewerFilterAddBody,
        response: withErrors({ 200: ViewerChangeAnswer }),
      },
    },
    async (req) => {
      const customerId = req.customer.customer_id;
      const users = [...new Set(req.body.users.map((u) => u.trim().toLowerCase()))];
      const filter = { label_key: req.body.label_key.trim(), label_value: req.body.label_value.trim() };
      if (!filter.label_key || !filter.label_value) throw new errors.badRequest('This field is required');
      return withTransaction(app.pg, async (tx) => {
        const strangers = await findNonViewers(tx, customerId, users);
        if (strangers.length > 0) throw new errors.badRequest(`${strangers[0]} is not a viewer of this customer`);
        await addViewerFilter(tx, customerId, users, filter);
        for (const u of users) await refreshClaims(tx, u);
        return listViewers(tx, customerId);
      });
    },
  );

  app.delete(
    '/v1/viewers/:customer/filters/:user/',
    {
      config: { permission: 'alerts_update', tenant: { params: 'customer' }, feature: 'billing_viewer' },
      schema: {
        tags: ['viewers'],
        summary: 'Remove every filter of a viewer for the customer',
        params: ViewerUserParams,
        response: withErrors({ 200: ViewerChangeAnswer }),
      },
    },
    async (req) => {
      const customerId = req.customer.customer_id;
      const user = req.params.user.trim().toLowerCase();
      return withTransaction(app.pg, async (tx) => {
        if ((await findNonViewers(tx, customerId, [user])).length > 0) throw new errors.userNotFound();
        await removeViewerFilters(tx, customerId, user);
        await refreshClaims(tx, user);
        return listViewers(tx, customerId);
      });
    },
  );
};
export default viewers;
