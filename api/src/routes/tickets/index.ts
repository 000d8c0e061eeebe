import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { attachmentStoreFromConfig, uploadSigningKey } from '@cc/shared/adapters/attachment-store/from-config.ts';
import { ticketReads } from './read.ts';
import { ticketWrites } from './write.ts';
import { ticketAttachments } from './attachments.ts';
import webhook from './webhook.ts';

/**
 * Tickets and Jira (spec 000 §7 Tickets); the route list and policies are in schemas/tickets.ts. Every route naming a
 * customer declares its support_request flag (`feature`; admins act for any customer regardless, spec 000 §6).
 */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  const store = attachmentStoreFromConfig(app.config);
  await app.register(ticketReads(store));
  await app.register(ticketWrites(store));
  await app.register(ticketAttachments(store, uploadSigningKey(app.config)));
  await app.register(webhook);
};
export default routes;
