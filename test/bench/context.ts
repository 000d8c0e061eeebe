/** A private, seeded database and queue prefix for one benchmark run, dropped at the end. */
import { randomUUID } from 'node:crypto';
import { loadConfig, type Config } from '@cc/shared/config.ts';
import { createPool, withTransaction, type Pool } from '@cc/shared/db/pool.ts';
import { seed } from '../../infra/scripts/seed.ts';
import { createTestDatabase, REDIS_URL } from '../db.ts';

export interface BenchContext {
  config: Config;
  pool: Pool;
  rows: number;
  seconds: number;
  close(): Promise<void>;
}

export async function benchContext(): Promise<BenchContext> {
  const db = await createTestDatabase();
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: db.url, REDIS_URL, QUEUE_PREFIX: `bench-${randomUUID()}`, WEB_DIST: 'web/dist' });
  const pool = createPool(config.DATABASE_URL, 4);
  await withTransaction(pool, seed);
  return {
    config,
    pool,
    rows: Number(process.env.BENCH_ROWS ?? 5_000_000),
    seconds: Number(process.env.BENCH_SECONDS ?? 10),
    async close() {
      await pool.end();
      await db.drop();
    },
  };
}

export const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
