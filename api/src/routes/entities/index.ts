import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/** Entity management (spec 001 §7). */
const routes: FastifyPluginAsyncTypebox = async () => {};
export default routes;
