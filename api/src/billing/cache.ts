/** The billing charts' and settings' answer cache (shared/src/billing/chart-cache.ts) on the api's Redis connection. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { chartCache, type CachedJson } from '@cc/shared/billing/chart-cache.ts';

export async function cachedJson(
  app: FastifyInstance,
  target: { customerId: string; billingAccountId: string },
  settings: unknown,
  compute: () => Promise<unknown>,
  req?: FastifyRequest,
): Promise<CachedJson> {
  // The committed data version comes from memory while PostgreSQL announces it, on the hot path's auto-pipelined
  // connection (access-cache.ts): no query per hit. A deferred request (route marked accessInLookup) has its access
  // confirmed in the lookup's own round trip.
  const access = req ? app.access.lookupCheck(req) : undefined;
  return chartCache(app.access.redis, app.config.QUEUE_PREFIX, app.log, app.access.dataVersion).cachedJson(target, settings, compute, access);
}

/**
 * Sends the JSON text as the body. Fastify sends a string with a JSON content type as is, so the route's response
 * schema documents the answer but does not serialise it again (the answer was built from the same TypeBox types).
 */
export function sendJson(reply: FastifyReply, answer: CachedJson): FastifyReply {
  return reply.header('x-cache', answer.hit ? 'hit' : 'miss').type('application/json; charset=utf-8').send(answer.json);
}
