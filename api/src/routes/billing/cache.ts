/**
 * Answer cache in Redis for the billing charts and settings (see shared/src/billing/cache-keys.ts for the key
 * scheme). The cache holds the answer's JSON text and a hit is sent as that text: no parse and re-serialisation
 * per request, and a hit is byte for byte the answer that was computed. Redis trouble never fails a request: the
 * answer is computed and served uncached.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { billingVersionKey, chartCacheKey, CHART_CACHE_TTL_SECONDS } from '@cc/shared/billing/cache-keys.ts';

export interface CachedJson {
  /** The answer as JSON text. */
  json: string;
  hit: boolean;
}

export async function cachedJson(
  app: FastifyInstance,
  target: { customerId: string; billingAccountId: string },
  settings: unknown,
  compute: () => Promise<unknown>,
): Promise<CachedJson> {
  const redis = app.producers.redis;
  const prefix = app.config.QUEUE_PREFIX;
  let key: string | null = null;
  try {
    const version = (await redis.get(billingVersionKey(prefix, target.billingAccountId))) ?? '0';
    key = chartCacheKey(prefix, target.customerId, target.billingAccountId, version, settings);
    const hit = await redis.get(key);
    if (hit !== null) return { json: hit, hit: true };
  } catch (err) {
    app.log.warn({ err }, 'billing cache unavailable');
    key = null;
  }
  const json = JSON.stringify(await compute());
  if (key) {
    await redis.set(key, json, 'EX', CHART_CACHE_TTL_SECONDS).catch((err) => app.log.warn({ err }, 'billing cache write failed'));
  }
  return { json, hit: false };
}

/**
 * Sends the JSON text as the body. Fastify sends a string with a JSON content type as is, so the route's response
 * schema documents the answer but does not serialise it again (the answer was built from the same TypeBox types).
 */
export function sendJson(reply: FastifyReply, answer: CachedJson): FastifyReply {
  return reply.header('x-cache', answer.hit ? 'hit' : 'miss').type('application/json; charset=utf-8').send(answer.json);
}
