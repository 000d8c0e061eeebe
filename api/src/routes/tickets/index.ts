import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { attachmentStoreFromConfig, uploadSigningKey } from '../../attachments/store.ts';
import { ticketReads } from './read.ts';
import { ticketWrites } from './write.ts';
import { ticketAttachments } from './attachments.ts';
import webhook from './webhook.ts';
import { errors } from '../../errors.ts';

/** Tickets and Jira (spec 000 §7 Tickets); the route list and policies are in schemas/tickets.ts. */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  const store = attachmentStoreFromConfig(app.config);
  // Spec 000 §6: Support needs the customer's support_request flag (admins act for any customer regardless).
  app.addHook('preHandler', async (req) => {
    if (req.customerId === null || !req.auth || req.auth.admin) return;
    if (!req.customer.support_request) throw new errors.forbidden('Support requests are disabled for this customer');
  });
  await app.register(ticketReads(store));
  await app.register(ticketWrites(store));
  await app.register(ticketAttachments(store, uploadSigningKey(app.config)));
  await app.register(webhook);
};
export default routes;
