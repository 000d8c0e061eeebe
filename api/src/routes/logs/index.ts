import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { insertErrorLog } from '@cc/shared/db/error-log.ts';
import { withErrors } from '@cc/shared/schemas/common.ts';

/** Screen crashes (spec 000 §7 error-log write, §8): the server stamps date and user. */
const logs: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/v1/logs',
    {
      config: { permission: 'authenticated', tenant: 'none' },
      schema: {
        tags: ['logs'],
        summary: 'Store a screen crash',
        body: Type.Object({
          resource: Type.String({ minLength: 1, maxLength: 2000 }),
          type: Type.String({ minLength: 1, maxLength: 200 }),
          data: Type.Unknown(),
        }),
        response: withErrors({ 201: Type.Object({ id: Type.String(), date: Type.String() }) }),
      },
      bodyLimit: 256 * 1024,
    },
    async (req, reply) => {
      const saved = await insertErrorLog(app.pg, { user_email: req.auth!.email, ...req.body });
      return reply.code(201).send(saved);
    },
  );
};
export default logs;
