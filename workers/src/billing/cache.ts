/** Invalidates the api's chart-answer cache of a billing account after its ingest (key scheme: shared/src/billing/cache-keys.ts). */
import type { Redis } from 'ioredis';
import { redisConnection } from '@cc/shared/redis.ts';
import { billingVersionKey } from '@cc/shared/billing/cache-keys.ts';

export interface BillingCache {
  invalidate(billingAccountId: string): Promise<void>;
  close(): Promise<void>;
}

/** Producer connections refuse commands until connected (no offline queue): wait briefly for a fresh one. */
async function whenReady(redis: Redis, ms = 3000): Promise<void> {
  if (redis.status === 'ready') return;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('redis not reachable')), ms);
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

export function billingCache(redisUrl: string, prefix: string): BillingCache {
  const redis = redisConnection(redisUrl, 'producer');
  redis.on('error', () => undefined);
  return {
    async invalidate(billingAccountId) {
      await whenReady(redis);
      await redis.incr(billingVersionKey(prefix, billingAccountId));
    },
    async close() {
      redis.disconnect();
    },
  };
}
