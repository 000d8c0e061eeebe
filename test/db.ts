import pg from 'pg';
import { createHash, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readEnvironment } from '@cc/shared/config.ts';

// The same servers the apps use: the environment over .env, else the local defaults.
const env = readEnvironment();
/** Server the tests use: DATABASE_URL's server (any database name), else the local default. */
export const SERVER_URL = env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
export const REDIS_URL = env.REDIS_URL || 'redis://127.0.0.1:6379';
const MIGRATIONS = fileURLToPath(new URL('../infra/migrations', import.meta.url));

/**
 * A migrated, empty database that every test database is cloned from (made by test/global-setup.ts).
 * Named after a hash of the migrations, so concurrent runs share it instead of dropping it under each other.
 */
export const TEMPLATE_DB = `cc_tpl_${createHash('sha1')
  .update(
    readdirSync(MIGRATIONS)
      .sort()
      .map((f) => f + readFileSync(`${MIGRATIONS}/${f}`, 'utf8'))
      .join('\n'),
  )
  .digest('hex')
  .slice(0, 12)}`;

export function urlFor(database: string): string {
  const u = new URL(SERVER_URL);
  u.pathname = `/${database}`;
  return u.toString();
}

export async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: urlFor('postgres') });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Creates a fresh database cloned from the template; returns its URL and a function that drops it. */
export async function createTestDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `cc_t_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  await adminQuery(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DB}`);
  return { url: urlFor(name), drop: () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
