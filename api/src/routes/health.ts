import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';

const Status = Type.Object({ status: Type.String(), postgres: Type.Optional(Type.String()), redis: Type.Optional(Type.String()) });
const policy = { permission: 'public', tenant: 'none' } as const;

/** `/healthz`: the process answers. `/readyz`: PostgreSQL and Redis answer too, else 503 (load balancers stop routing here). */
const health: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/healthz', { config: policy, schema: { hide: true, response: { 200: Status } } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { config: policy, schema: { hide: true, response: { 200: Status, 503: Status } } }, async (_req, reply) => {
    const timeout = <T>(p: Promise<T>) =>
      Promise.race([p, new Promise<never>((_, rej) => setTimeout(() => rej(new Error('timeout')), 2000))]);
    const [pg, redis] = await Promise.allSettled([timeout(app.pg.query('SELECT 1')), timeout(app.producers.redis.ping())]);
    const body = {
      status: pg.status === 'fulfilled' && redis.status === 'fulfilled' ? 'ok' : 'unavailable',
      postgres: pg.status === 'fulfilled' ? 'ok' : String(pg.reason),
      redis: redis.status === 'fulfilled' ? 'ok' : String(redis.reason),
    };
    return reply.code(body.status === 'ok' ? 200 : 503).send(body);
  });
};
export default health;
