import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/** Billing settings, charts and exports (spec 000 §7 Billing); admin ingest enqueue. */
const routes: FastifyPluginAsyncTypebox = async () => {};
export default routes;
