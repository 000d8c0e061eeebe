/** The billing charts' and settings' answer cache (shared/src/billing/chart-cache.ts) on the api's Redis connection. */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { chartCache, type CachedJson } from '@cc/shared/billing/chart-cache.ts';
import { billingDataVersion } from '@cc/shared/db/outbox.ts';

export async function cachedJson(
  app: FastifyInstance,
  target: { customerId: string; billingAccountId: string },
  settings: unknown,
  compute: () => Promise<unknown>,
): Promise<CachedJson> {
  const committed = (billingAccountId: string) => billingDataVersion(app.pg, billingAccountId);
  return chartCache(app.producers.redis, app.config.QUEUE_PREFIX, app.log, committed).cachedJson(target, settings, compute);
}

/**
 * Sends the JSON text as the body. Fastify sends a string with a JSON content type as is, so the route's response
 * schema documents the answer but does not serialise it again (the answer was built from the same TypeBox types).
 */
export function sendJson(reply: FastifyReply, answer: CachedJson): FastifyReply {
  return reply.header('x-cache', answer.hit ? 'hit' : 'miss').type('application/json; charset=utf-8').send(answer.json);
}
