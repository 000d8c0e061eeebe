import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { countAlertsOfCustomer, createAlert, deleteAlerts, listAlertNotices, listAlerts } from '@cc/shared/db/alerts.ts';
import { withTransaction } from '@cc/shared/db/pool.ts';
import { MESSAGES } from '@cc/shared/constants.ts';
import { Alert, AlertCreateBody, AlertDeleteAnswer, AlertDeleteBody, AlertList, AlertNoticeList, AlertParams } from '@cc/shared/schemas/insights.ts';
import { withErrors } from '@cc/shared/schemas/common.ts';
import { errors } from '../../errors.ts';
import { parseAlert } from '../../alerts/validate.ts';

/** Notices listed per request; a customer with a dozen alerts reaches it after years. */
const NOTICE_PAGE = 500;

/**
 * Billing alerts (spec 001 §2.8, §7 Alerts): month-to-date spend quotas on the customer's first billing account,
 * and the notices e-mailed when one was first exceeded in a month.
 */
const alerts: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/v1/alerts/:customer/',
    {
      config: { permission: 'alerts_read', tenant: { params: 'customer' } },
      schema: { tags: ['alerts'], summary: 'The customer’s billing alerts', params: AlertParams, response: withErrors({ 200: AlertList }) },
    },
    async (req) => listAlerts(app.pg, req.customer.customer_id),
  );

  app.post(
    '/v1/alerts/:customer/',
    {
      config: { permission: 'alerts_create', tenant: { params: 'customer' } },
      schema: {
        tags: ['alerts'],
        summary: 'Add an alert: group_by, label_key, label_value, quota',
        params: AlertParams,
        body: AlertCreateBody,
        response: withErrors({ 201: Alert }),
      },
    },
    async (req, reply) => {
      const alert = parseAlert(req.body);
      const customer = req.customer;
      if (customer.billing_account_ids.length === 0) throw new errors.badRequest(MESSAGES.missingBillingAccount);
      const saved = await createAlert(app.pg, { customerId: customer.customer_id, ...alert, createdBy: req.auth!.email });
      return reply.code(201).send(saved);
    },
  );

  app.delete(
    '/v1/alerts/:customer/',
    {
      config: { permission: 'alerts_update', tenant: { params: 'customer' } },
      schema: {
        tags: ['alerts'],
        summary: 'Delete the selected alerts (all or nothing)',
        params: AlertParams,
        body: AlertDeleteBody,
        response: withErrors({ 200: AlertDeleteAnswer }),
      },
    },
    async (req) => {
      const ids = [...new Set(req.body.ids)];
      const customerId = req.customer.customer_id;
      const deleted = await withTransaction(app.pg, async (tx) => {
        // An id of another customer's alert is answered like an unknown one, and nothing is deleted.
        if ((await countAlertsOfCustomer(tx, customerId, ids)) !== ids.length) throw new errors.notFound('Alert not found');
        return deleteAlerts(tx, customerId, ids);
      });
      return { deleted };
    },
  );

  app.get(
    '/v1/alerts/:customer/notices/',
    {
      config: { permission: 'alerts_read', tenant: { params: 'customer' } },
      schema: {
        tags: ['alerts'],
        summary: 'Notices sent when an alert’s quota was first exceeded in a month, newest first',
        params: AlertParams,
        response: withErrors({ 200: AlertNoticeList }),
      },
    },
    async (req) => listAlertNotices(app.pg, req.customer.customer_id, NOTICE_PAGE),
  );
};
export default alerts;
