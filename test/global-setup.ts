/** Runs once before the tap suite: rebuilds the template database every test database is cloned from. */
import { adminQuery, TEMPLATE_DB, urlFor } from './db.ts';
import { migrate } from '../infra/scripts/migrate.ts';

await adminQuery(`DROP DATABASE IF EXISTS ${TEMPLATE_DB} WITH (FORCE)`);
await migrate(urlFor(TEMPLATE_DB));
console.log(`# test template database ${TEMPLATE_DB} migrated`);
