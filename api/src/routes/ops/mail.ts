import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { listMail } from '@cc/shared/db/mail.ts';
import { withErrors } from '@cc/shared/schemas/common.ts';

const Mail = Type.Object({
  id: Type.String(),
  received_at: Type.String(),
  message_id: Type.Union([Type.String(), Type.Null()]),
  mail_from: Type.String(),
  rcpt_to: Type.Array(Type.String()),
  subject: Type.String(),
  text_body: Type.String(),
  html_body: Type.String(),
});

/** The local SMTP adapter's inbox, for admins (MAIL=local): e-mail can be read without the internet. */
const mail: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/v1/ops/mail',
    {
      config: { permission: 'admin', tenant: 'none' },
      schema: {
        tags: ['ops'],
        summary: 'Messages received by the local SMTP server, newest first',
        querystring: Type.Object({
          to: Type.Optional(Type.String()),
          limit: Type.Integer({ minimum: 1, maximum: 500, default: 50 }),
          offset: Type.Integer({ minimum: 0, default: 0 }),
        }),
        response: withErrors({ 200: Type.Object({ messages: Type.Array(Mail) }) }),
      },
    },
    async (req) => ({ messages: await listMail(app.pg, req.query) }),
  );
};
export default mail;
