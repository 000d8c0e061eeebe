import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { withErrors } from '@cc/shared/schemas/common.ts';
import { CustomerParams } from '@cc/shared/schemas/billing.ts';
import { ReconcileAnswer, ReconcileQuery } from '@cc/shared/schemas/billing-reconcile.ts';
import { reconcileMonths } from '@cc/shared/db/billing-reconcile.ts';
import { billingToday } from '@cc/shared/time.ts';
import { errors } from '../../errors.ts';
import { accountContext, isViewer } from '../../billing/account.ts';
import { reconcileAnswer } from '../../billing/reconcile.ts';

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;
const PROVIDER = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/**
 * 'Reconcile with invoice': a month's spend by invoice month beside its spend by usage day, with the
 * difference explained line by line, for the finance user (docs/decisions-billing.md, "Reconcile with invoice").
 */
const reconcile: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/v2/billing/reconcile/:customer',
    {
      config: { permission: 'billing_read', tenant: { params: 'customer' } },
      schema: {
        tags: ['billing'],
        summary: 'Reconcile a month with the provider invoice',
        params: CustomerParams,
        querystring: ReconcileQuery,
        response: withErrors({ 200: ReconcileAnswer }),
      },
    },
    async (req) => {
      // an invoice is the whole billing account's: a viewer restricted to some projects cannot tie it out
      if (isViewer(req.auth)) throw new errors.forbidden('The invoice reconciliation covers the whole billing account; a customer viewer sees only the project-label view');
      const provider = req.query.provider ?? 'all';
      if (provider !== 'all' && !PROVIDER.test(provider)) throw new errors.badRequest(`Provider '${provider}' is not a provider id (e.g. gcp, aws, azure or all)`);
      if (req.query.month !== undefined && !MONTH.test(req.query.month)) throw new errors.badRequest(`Month '${req.query.month}' is not a month written as YYYY-MM (e.g. 2026-10)`);
      const ctx = await accountContext(app, req.customer, req.auth, req.query.billing_account_id);
      const months = await reconcileMonths(app.pg, ctx.customerId, ctx.billingAccountId);
      const month = req.query.month ?? months[0] ?? billingToday().slice(0, 7);
      return reconcileAnswer(
        app.pg,
        { customerId: ctx.customerId, billingAccountId: ctx.billingAccountId, month, provider: provider === 'all' ? null : provider, currency: ctx.customer.billing_currency },
        months,
      );
    },
  );
};
export default reconcile;
