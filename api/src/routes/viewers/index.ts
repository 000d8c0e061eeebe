import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/** Billing viewers and their project-label filters. */
const routes: FastifyPluginAsyncTypebox = async () => {};
export default routes;
