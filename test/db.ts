import pg from 'pg';
import { randomUUID } from 'node:crypto';

/** Server the tests use: DATABASE_URL's server (any database name), else the local default. */
export const SERVER_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
/** A migrated, empty database that every test database is cloned from (made by test/global-setup.ts). */
export const TEMPLATE_DB = 'cc_test_template';

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
