import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/** Customer create and update, access lists, service access (spec 000 §7 Customers, 001 §7). */
const routes: FastifyPluginAsyncTypebox = async () => {};
export default routes;
