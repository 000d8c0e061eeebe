import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { withErrors } from '@cc/shared/schemas/common.ts';
import { SpendAnswer } from '@cc/shared/schemas/operations.ts';

/** One row per customer: its own dashboard's figures and the provider-currency column (admins only, every customer). */
const spend: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/v1/operations/spend',
    {
      config: { permission: 'admin', tenant: 'none' },
      schema: {
        tags: ['operations'],
        summary: 'Every customer’s month to date, forecast and last month at the same day, in its currency and in PROVIDER_CURRENCY',
        response: withErrors({ 200: SpendAnswer }),
      },
    },
    async () => app.operationsInbox.spend(),
  );
};

export default spend;
