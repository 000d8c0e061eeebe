import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/** Anomalies (spec 000 §7 Anomalies). */
const routes: FastifyPluginAsyncTypebox = async () => {};
export default routes;
