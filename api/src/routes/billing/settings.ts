import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { withErrors } from '@cc/shared/schemas/common.ts';
import { BillingSettings, CustomerParams, SettingsQuery } from '@cc/shared/schemas/billing.ts';
import { billingOptions } from '@cc/shared/db/billing-options.ts';
import { accountContext } from '../../billing/account.ts';
import { parseProvider } from '../../billing/settings.ts';
import { cachedJson, sendJson } from '../../billing/cache.ts';

const settings: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/v2/billing/settings/:customer',
    {
      config: { permission: 'billing_read', tenant: { params: 'customer' } },
      schema: {
        tags: ['billing'],
        summary: 'Choices of the billing settings drawer for one billing account',
        params: CustomerParams,
        querystring: SettingsQuery,
        response: withErrors({ 200: BillingSettings }),
      },
    },
    async (req, reply) => {
      const provider = parseProvider(req.query.provider, 'all');
      const ctx = await accountContext(app, req.customer, req.auth, req.query.billing_account_id);
      const filter = {
        customerId: ctx.customerId,
        billingAccountId: ctx.billingAccountId,
        provider: provider === 'all' || ctx.viewer ? null : provider,
        viewer: ctx.viewer,
      };
      // The choices scan the account's whole history: cached like the charts, dropped by the account's next ingest.
      const cacheSettings = { kind: 'settings', provider: filter.provider, viewer: ctx.viewer, customer: ctx.customer };
      const answer = await cachedJson(app, ctx, cacheSettings, async (): Promise<BillingSettings> => {
        const options = await billingOptions(app.pg, filter);
        // A viewer has only the project-label view: no services or resource labels to choose from.
        const viewer = ctx.viewer !== null;
        return {
          ...options,
          services: viewer ? [] : options.services,
          resource_labels: viewer ? {} : options.resource_labels,
          currency: ctx.customer.billing_currency,
          billing_dashboard_type: ctx.customer.billing_dashboard_type,
        };
      });
      return sendJson(reply, answer);
    },
  );
};
export default settings;
