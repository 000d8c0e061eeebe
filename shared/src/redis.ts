import { Redis } from 'ioredis';

/**
 * Connections for BullMQ. Workers need `maxRetriesPerRequest: null` (blocking commands);
 * producers fail fast so an API request never hangs on a Redis outage.
 */
export function redisConnection(url: string, role: 'producer' | 'worker'): Redis {
  return new Redis(url, {
    maxRetriesPerRequest: role === 'worker' ? null : 1,
    enableOfflineQueue: role === 'worker',
    lazyConnect: false,
  });
}
