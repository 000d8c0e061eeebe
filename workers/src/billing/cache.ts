/** Invalidates the api's chart-answer cache of a billing account after its ingest (key scheme: shared/src/billing/cache-keys.ts). */
import { redisConnection } from '@cc/shared/redis.ts';
import { billingVersionKey } from '@cc/shared/billing/cache-keys.ts';

export interface BillingCache {
  invalidate(billingAccountId: string): Promise<void>;
  close(): Promise<void>;
}

export function billingCache(redisUrl: string, prefix: string): BillingCache {
  const redis = redisConnection(redisUrl, 'producer');
  redis.on('error', () => undefined);
  return {
    async invalidate(billingAccountId) {
      await redis.incr(billingVersionKey(prefix, billingAccountId));
    },
    async close() {
      redis.disconnect();
    },
  };
}
