/**
 * Runs once before the tap suite: makes sure the template database for the current migrations exists.
 * Built under a temporary name and renamed when complete, so a concurrent run never clones a half-migrated one.
 */
import pg from 'pg';
import { randomUUID } from 'node:crypto';
import { adminQuery, TEMPLATE_DB, urlFor } from './db.ts';
import { migrate } from '../infra/scripts/migrate.ts';

const client = new pg.Client({ connectionString: urlFor('postgres') });
await client.connect();
const exists = (await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [TEMPLATE_DB])).rowCount;
await client.end();
if (exists) {
  console.log(`# test template ${TEMPLATE_DB} is current`);
} else {
  const building = `${TEMPLATE_DB}_b${randomUUID().slice(0, 8)}`;
  await migrate(urlFor(building));
  try {
    await adminQuery(`ALTER DATABASE ${building} RENAME TO ${TEMPLATE_DB}`);
    console.log(`# test template ${TEMPLATE_DB} migrated`);
  } catch {
    await adminQuery(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`); // another run finished first
  }
}
