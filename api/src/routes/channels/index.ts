import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { withErrors } from '@cc/shared/schemas/common.ts';
import { Channel, ChannelCreate, ChannelCreated, ChannelList, ChannelParams, ChannelTestResult, ChannelUpdate, OneChannelParams } from '@cc/shared/schemas/notification-channels.ts';
import { deleteChannel, listChannels, updateChannel } from '@cc/shared/db/notification-channels.ts';
import { secretBoxFromConfig } from '@cc/shared/secrets-key.ts';
import { Type } from '@sinclair/typebox';
import { createChannel, sendTest } from '../../notification-channels/channels.ts';
import { errors } from '../../errors.ts';

const NOT_FOUND = 'Notification channel not found';
/** Channel ids are uuids; anything else is no channel of this customer (404, as another customer's). */
const isUuid = (s: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);

/**
 * A customer's notification channels (webhook, Slack, Microsoft Teams): shapes and the route table in
 * shared/src/schemas/notification-channels.ts. Every route admits the customer of `:id` (tenant guard) and reads
 * and writes only that customer's channels, so another customer's channel id answers 404.
 */
const channelRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const box = secretBoxFromConfig(app.config);
  const policy = { production: app.config.NODE_ENV === 'production' };

  app.get(
    '/v1/customers/:id/channels/',
    {
      config: { permission: 'alerts_read', tenant: { params: 'id' } },
      schema: { tags: ['customers'], summary: "A customer's notification channels (never their URL or secret)", params: ChannelParams, response: withErrors({ 200: ChannelList }) },
    },
    async (req) => ({ items: await listChannels(app.pg, req.customer.customer_id) }),
  );

  app.post(
    '/v1/customers/:id/channels/',
    {
      config: { permission: 'alerts_create', tenant: { params: 'id' } },
      schema: {
        tags: ['customers'],
        summary: 'Add a notification channel; a webhook\'s signing secret is in this answer only',
        params: ChannelParams,
        body: ChannelCreate,
        response: withErrors({ 201: ChannelCreated }),
      },
    },
    async (req, reply) => {
      const created = await createChannel(app.pg, box, policy, req.customer.customer_id, req.body, req.auth!.email);
      return reply.code(201).send(created);
    },
  );

  app.patch(
    '/v1/customers/:id/channels/:channel/',
    {
      config: { permission: 'alerts_update', tenant: { params: 'id' } },
      schema: { tags: ['customers'], summary: "Rename a notification channel or change its events", params: OneChannelParams, body: ChannelUpdate, response: withErrors({ 200: Channel }) },
    },
    async (req) => {
      const changed = isUuid(req.params.channel) ? await updateChannel(app.pg, req.customer.customer_id, req.params.channel, req.body) : null;
      if (!changed) throw new errors.notFound(NOT_FOUND);
      return changed;
    },
  );

  app.delete(
    '/v1/customers/:id/channels/:channel/',
    {
      config: { permission: 'alerts_update', tenant: { params: 'id' } },
      schema: { tags: ['customers'], summary: 'Delete a notification channel (its queued deliveries end unsent)', params: OneChannelParams, response: withErrors({ 204: Type.Null() }) },
    },
    async (req, reply) => {
      if (!isUuid(req.params.channel) || !(await deleteChannel(app.pg, req.customer.customer_id, req.params.channel))) throw new errors.notFound(NOT_FOUND);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/v1/customers/:id/channels/:channel/test/',
    {
      config: { permission: 'alerts_update', tenant: { params: 'id' }, readOnly: true },
      schema: { tags: ['customers'], summary: 'Send a test notice to a notification channel now', params: OneChannelParams, response: withErrors({ 200: ChannelTestResult }) },
    },
    async (req) => {
      const result = isUuid(req.params.channel) ? await sendTest(app.pg, box, policy, req.customer.customer_id, req.params.channel) : null;
      if (!result) throw new errors.notFound(NOT_FOUND);
      return result;
    },
  );
};
export default channelRoutes;
