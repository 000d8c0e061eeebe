import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { recordWebhookDelivery } from '@cc/shared/db/tickets/sync.ts';
import { withErrors } from '@cc/shared/schemas/common.ts';
import { WebhookAnswer } from '@cc/shared/schemas/tickets.ts';
import { errors } from '../../errors.ts';
import { enqueueSync } from '../../tickets/context.ts';
import { webhookSignatureValid } from '../../tickets/webhook-signature.ts';

declare module 'fastify' {
  interface FastifyRequest {
    rawBody?: Buffer;
  }
}

const ISSUE_KEY = /^[A-Z][A-Z0-9_]*-\d+$/;

/**
 * Jira webhook (jira:issue_updated, comment_created, ...): after the signature check it only queues a pull of the
 * named issue; the job reads the issue from Jira itself, so a forged body could at most cause a re-read.
 */
const webhook: FastifyPluginAsyncTypebox = async (app) => {
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body, done) => {
    req.rawBody = body as Buffer;
    try {
      done(null, JSON.parse((body as Buffer).toString('utf8')));
    } catch {
      done(new errors.badRequest('body is not JSON'), undefined);
    }
  });
  app.post(
    '/v1/jira/webhook',
    {
      config: { permission: 'public', tenant: 'none' },
      schema: {
        tags: ['tickets'],
        summary: 'Jira webhook (shared secret: X-Hub-Signature HMAC of the body)',
        body: Type.Object({ webhookEvent: Type.Optional(Type.String()), issue: Type.Optional(Type.Object({ key: Type.String() })) }),
        response: withErrors({ 202: WebhookAnswer }),
      },
    },
    async (req, reply) => {
      const secret = app.config.JIRA_WEBHOOK_SECRET;
      if (!secret) throw new errors.forbidden('The Jira webhook is not configured');
      if (!webhookSignatureValid(secret, req.rawBody ?? Buffer.alloc(0), req.headers['x-hub-signature'] as string | undefined)) {
        throw new errors.forbidden('Invalid webhook signature');
      }
      const key = req.body.issue?.key;
      if (!key || !ISSUE_KEY.test(key)) return reply.code(202).send({ accepted: false });
      const delivery = String(req.headers['x-atlassian-webhook-identifier'] ?? '').replace(/[^A-Za-z0-9._-]/g, '').slice(0, 100);
      if (delivery && !(await recordWebhookDelivery(app.pg, delivery))) return reply.code(202).send({ accepted: false });
      await enqueueSync(app, { op: 'pull-issue', jira_key: key, ...(delivery ? { ref: delivery } : {}) });
      return reply.code(202).send({ accepted: true });
    },
  );
};
export default webhook;
