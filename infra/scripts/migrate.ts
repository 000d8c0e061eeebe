/**
 * Creates the database if missing, then applies infra/migrations with node-pg-migrate.
 * Usage: tsx infra/scripts/migrate.ts [up|down] (DATABASE_URL from the environment or its default).
 */
import { runner } from 'node-pg-migrate';
import pg from 'pg';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '@cc/shared/config.ts';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../migrations', import.meta.url));

export async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}

/**
 * Applies every migration the database has not run, in name order. `checkOrder: false`: work done side by side numbers
 * its migrations as it goes, so one can land after a higher-numbered one (117 and 122 after 125); with node-pg-migrate's
 * default check, a database that had run 125 refused to start ("Not run migration … is preceding already run
 * migration …"), while a fresh one, as every test has, never showed it. Each migration stands on its own tables.
 */
export async function migrate(url: string, direction: 'up' | 'down' = 'up', log: (msg: string) => void = () => undefined, dir = MIGRATIONS_DIR): Promise<void> {
  await ensureDatabase(url);
  await runner({
    databaseUrl: url,
    dir,
    checkOrder: false,
    direction,
    count: direction === 'up' ? Infinity : 1,
    migrationsTable: 'pgmigrations',
    useGlob: false,
    log,
    singleTransaction: true,
  } as Parameters<typeof runner>[0]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const direction = process.argv[2] === 'down' ? 'down' : 'up';
  const { DATABASE_URL } = loadConfig();
  await migrate(DATABASE_URL, direction, (m) => console.log(m));
  console.log(`migrations ${direction}: done (${new URL(DATABASE_URL).pathname.slice(1)})`);
}
