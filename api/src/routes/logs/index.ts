import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { insertErrorLog } from '@cc/shared/db/error-log.ts';
import { withErrors } from '@cc/shared/schemas/common.ts';

/**
 * Any signed-in user may write here, so the log must not become free storage: 30 entries an hour per user (a screen
 * that crashes on every visit still gets reported, a script does not fill the database), each entry's data capped
 * (db/error-log.ts), and the maintenance job deletes entries past ERROR_LOG_RETENTION_DAYS.
 */
export const ERROR_LOG_LIMIT = { max: 30, timeWindow: 3_600_000 };

/** Screen crashes (spec 000 §7 error-log write, §8): the server stamps date and user. */
const logs: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/v1/logs',
    {
      config: {
        permission: 'authenticated',
        tenant: 'none',
        rateLimit: { ...ERROR_LOG_LIMIT, keyGenerator: (req: FastifyRequest) => `error-log:${req.auth?.email ?? req.ip}` },
      },
      schema: {
        tags: ['logs'],
        summary: 'Store a screen crash (30 an hour per user; data beyond 16 KiB of JSON is kept truncated)',
        body: Type.Object({
          resource: Type.String({ minLength: 1, maxLength: 2000 }),
          type: Type.String({ minLength: 1, maxLength: 200 }),
          data: Type.Unknown(),
        }),
        response: withErrors({ 201: Type.Object({ id: Type.String(), date: Type.String() }) }),
      },
      // What the web's crash boundary may send (two texts of 50,000 characters); stored capped.
      bodyLimit: 256 * 1024,
    },
    async (req, reply) => {
      const saved = await insertErrorLog(app.pg, { user_email: req.auth!.email, ...req.body });
      return reply.code(201).send(saved);
    },
  );
};
export default logs;
