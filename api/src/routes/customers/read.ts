import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { findCustomer, listCustomers, type CustomerDocument as Doc } from '@cc/shared/db/customers.ts';
import { CustomerDocument } from '@cc/shared/schemas/customers.ts';
import { withErrors } from '@cc/shared/schemas/common.ts';
import { errors } from '../../errors.ts';
import type { AuthUser } from '../../plugins/app/auth.ts';

/**
 * A viewer needs the customer's feature flags (menu, billing accounts) but not who else has access:
 * the member lists and other users' filters are withheld from customerViewer.
 */
function visibleTo(user: AuthUser, c: Doc): Doc {
  if (user.role !== 'customerViewer') return c;
  return { ...c, users: [], notify: [], alert: [], filters: c.filters.filter((f) => f.user === user.email) };
}

const customersRead: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/v1/customers/',
    {
      config: { permission: 'customermanagement_read', tenant: 'none' },
      schema: {
        tags: ['customers'],
        summary: 'Customers the caller may act for (all, for an admin)',
        response: withErrors({ 200: Type.Array(CustomerDocument) }),
      },
    },
    async (req) => {
      const user = req.auth!;
      return app.pgRead.fresh((db) => listCustomers(db, user.admin ? { admin: true } : { admin: false, userId: user.email }));
    },
  );

  app.get(
    '/v1/customers/:id/',
    {
      // Every signed-in role reads the selected customer's flags to build the menu.
      config: { permission: 'authenticated', tenant: { params: 'id' } },
      schema: {
        tags: ['customers'],
        summary: 'One customer',
        params: Type.Object({ id: Type.String() }),
        response: withErrors({ 200: CustomerDocument }),
      },
    },
    async (req) => {
      const customer = await findCustomer(app.pg, req.customer.customer_id);
      if (!customer) throw new errors.customerNotFound();
      return visibleTo(req.auth!, customer);
    },
  );
};
export default customersRead;
