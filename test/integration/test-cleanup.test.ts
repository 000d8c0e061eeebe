import t from 'tap';
import { Redis } from 'ioredis';
import { billingVersionKey } from '@cc/shared/billing/chart-cache.ts';
import { build } from '../helper.ts';
import { REDIS_URL } from '../db.ts';

/** Keys under a prefix, counted with SCAN as the cleanup does. */
async function keysUnder(redis: Redis, prefix: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    found.push(...keys);
    cursor = next;
  } while (cursor !== '0');
  return found;
}

t.test('a test leaves nothing in Redis under its prefix', async (t) => {
  const redis = new Redis(REDIS_URL);
  t.teardown(() => redis.disconnect());
  let prefix = '';

  await t.test('writes queue jobs and cache keys', async (t) => {
    const app = await build(t, { seed: false });
    prefix = app.env.config.QUEUE_PREFIX;
    await app.producers.enqueue('notify', 'notify.send', { to: ['a@example.com'], subject: 's', text: 't', key: 'cleanup-check' });
    await redis.incr(billingVersionKey(prefix, '01A2B3-C4D5E6-F7A8B9'));
    t.ok((await keysUnder(redis, prefix)).length > 2, 'the job and the version counter are in Redis while the test runs');
  });

  t.match(prefix, /^test-[0-9a-f-]{36}$/);
  t.same(await keysUnder(redis, prefix), [], 'nothing is left once the test has ended');
});
