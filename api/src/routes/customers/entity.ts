import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { entityOfCustomer } from '@cc/shared/db/entities.ts';
import { CustomerEntity, CustomerParams } from '@cc/shared/schemas/customers.ts';
import { withErrors } from '@cc/shared/schemas/common.ts';
import { errors } from '../../errors.ts';

/**
 * Customer Settings (spec 001 §2.5) names the customer's entity. The entity routes are admin-only, so the
 * customer's own users read just their customer's entity here, behind the usual tenant guard.
 */
const customerEntity: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/v1/customers/:id/entity/',
    {
      config: { permission: 'customermanagement_read', tenant: { params: 'id' } },
      schema: {
        tags: ['customers'],
        summary: 'The entity (id and name) of a customer the caller may see',
        params: CustomerParams,
        response: withErrors({ 200: CustomerEntity }),
      },
    },
    async (req) => {
      const entity = await entityOfCustomer(app.pg, req.customer.customer_id);
      if (!entity) throw new errors.customerNotFound();
      return entity;
    },
  );
};
export default customerEntity;
