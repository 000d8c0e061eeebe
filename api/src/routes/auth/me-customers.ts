import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { pageCustomersOfUser } from '@cc/shared/db/users.ts';
import { CustomerPage, withErrors } from '@cc/shared/schemas/common.ts';

const PickerQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 100, description: 'part of the name or id, any case' })),
  offset: Type.Integer({ minimum: 0, default: 0 }),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 25 }),
});

/**
 * The header's customer picker: the customers the caller may act for (every customer, for an admin), by name,
 * searched and paged. The claims carry only the first few, so they stay small with hundreds of customers.
 */
const meCustomers: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/v1/auth/me/customers',
    {
      config: { permission: 'authenticated', tenant: 'none' },
      schema: {
        tags: ['auth'],
        summary: 'The customers the caller may act for (all, for an admin), by name; searchable and paged, for the customer picker',
        querystring: PickerQuery,
        response: withErrors({ 200: CustomerPage }),
      },
    },
    async (req) => {
      const user = req.auth!;
      const search = req.query.q?.trim() || undefined;
      return app.pgRead.fresh((db) => pageCustomersOfUser(db, user.email, user.admin, { search, offset: req.query.offset, limit: req.query.limit }));
    },
  );
};
export default meCustomers;
