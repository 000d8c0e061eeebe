import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { loadConfig, type Config } from '@cc/shared/config.ts';
import { createPool, withTransaction, type Pool } from '@cc/shared/db/pool.ts';
import { buildApp } from '../api/src/app.ts';
import { seed, DEMO_PASSWORD } from '../infra/scripts/seed.ts';
import { createTestDatabase, REDIS_URL } from './db.ts';

export { DEMO_PASSWORD };

interface Teardown {
  teardown(fn: () => unknown): void;
}

export interface TestEnv {
  config: Config;
  pool: Pool;
}

/** A private database (cloned from the migrated template, optionally seeded) and queue prefix, dropped after the test. */
export async function testEnv(t: Teardown, opts: { seed?: boolean; config?: Partial<Config> } = {}): Promise<TestEnv> {
  const db = await createTestDatabase();
  const prefix = `test-${randomUUID()}`;
  // Each test signs and seals with keys of its own: no test can pass by leaning on a fixed, known secret, and
  // nothing is generated into var/.
  const JWT_SECRET = randomBytes(32).toString('base64url');
  const SECRETS_KEY = randomBytes(32).toString('base64url');
  const config = loadConfig(
    { NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: db.url, REDIS_URL, QUEUE_PREFIX: prefix, WEB_DIST: 'web/dist', JWT_SECRET, SECRETS_KEY },
    opts.config,
  );
  const pool = createPool(config.DATABASE_URL, 4);
  if (opts.seed !== false) await withTransaction(pool, seed);
  // Registered first, so it runs last: after the test's apps, workers and queue listeners have closed.
  t.teardown(async () => {
    await pool.end();
    await db.drop();
    const left = await removeRedisKeys(prefix);
    if (left.length) throw new Error(`Redis keys still written under ${prefix} after cleanup (a worker left running?): ${left.join(', ')}`);
  });
  return { config, pool };
}

/**
 * Deletes every key under a test's prefix (BullMQ queues, chart caches, version counters) and returns what is
 * there afterwards, which must be nothing: a shared Redis must not fill up with one run's leftovers.
 */
export async function removeRedisKeys(prefix: string): Promise<string[]> {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  try {
    await forEachKey(redis, `${prefix}:*`, (keys) => redis.unlink(...keys));
    const left: string[] = [];
    await forEachKey(redis, `${prefix}:*`, async (keys) => void left.push(...keys));
    return left;
  } finally {
    redis.disconnect();
  }
}

/** SCAN, not KEYS: it never blocks a Redis that other test runs and developers share. */
async function forEachKey(redis: Redis, pattern: string, fn: (keys: string[]) => Promise<unknown>): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    if (keys.length) await fn(keys);
    cursor = next;
  } while (cursor !== '0');
}

/** Builds the api against a private database; closed after the test. Use `app.inject()`. */
export async function build(t: Teardown, opts: { seed?: boolean; config?: Partial<Config> } = {}): Promise<FastifyInstance & { env: TestEnv }> {
  const env = await testEnv(t, opts);
  const app = await buildApp(env.config, { logger: false });
  await app.ready();
  t.teardown(() => app.close());
  return Object.assign(app, { env });
}

/** Signs in through the real login route and returns the bearer token. */
export async function login(app: FastifyInstance, email: string, password = DEMO_PASSWORD): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email, password } });
  if (res.statusCode !== 200) throw new Error(`login ${email} failed: ${res.statusCode} ${res.body}`);
  return res.json().token as string;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
