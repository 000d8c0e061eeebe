import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/** User management (spec 001 §7). */
const routes: FastifyPluginAsyncTypebox = async () => {};
export default routes;
