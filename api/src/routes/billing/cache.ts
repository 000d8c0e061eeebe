/**
 * Chart-answer cache in Redis (see shared/src/billing/cache-keys.ts for the key scheme). Redis trouble never fails
 * a chart: the answer is computed and served uncached.
 */
import type { FastifyInstance } from 'fastify';
import { billingVersionKey, chartCacheKey, CHART_CACHE_TTL_SECONDS } from '@cc/shared/billing/cache-keys.ts';

export async function cachedAnswer<T>(
  app: FastifyInstance,
  target: { customerId: string; billingAccountId: string },
  settings: unknown,
  compute: () => Promise<T>,
): Promise<{ answer: T; hit: boolean }> {
  const redis = app.producers.redis;
  const prefix = app.config.QUEUE_PREFIX;
  let key: string | null = null;
  try {
    const version = (await redis.get(billingVersionKey(prefix, target.billingAccountId))) ?? '0';
    key = chartCacheKey(prefix, target.customerId, target.billingAccountId, version, settings);
    const hit = await redis.get(key);
    if (hit !== null) return { answer: JSON.parse(hit) as T, hit: true };
  } catch (err) {
    app.log.warn({ err }, 'billing cache unavailable');
    key = null;
  }
  const answer = await compute();
  if (key) {
    await redis.set(key, JSON.stringify(answer), 'EX', CHART_CACHE_TTL_SECONDS).catch((err) => app.log.warn({ err }, 'billing cache write failed'));
  }
  return { answer, hit: false };
}
