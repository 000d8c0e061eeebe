import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/** Billing alerts (spec 001 §7/§8 Alerts). */
const routes: FastifyPluginAsyncTypebox = async () => {};
export default routes;
