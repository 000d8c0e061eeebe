import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/** Tickets and Jira (spec 000 §7 Tickets). */
const routes: FastifyPluginAsyncTypebox = async () => {};
export default routes;
