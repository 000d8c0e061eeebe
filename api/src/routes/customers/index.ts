import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import claimsRoutes from './claims.ts';
import customersRead from './read.ts';
import customersWrite from './write.ts';
import customerLists from './lists.ts';
import serviceAccess from './service.ts';
import customerEntity from './entity.ts';

/** Customers (spec 000 §7, 001 §2.4–2.6): read, create and update, member lists, service access, entity, claims. */
const customers: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(claimsRoutes);
  await app.register(customersRead);
  await app.register(customersWrite);
  await app.register(customerLists);
  await app.register(serviceAccess);
  await app.register(customerEntity);
};
export default customers;
