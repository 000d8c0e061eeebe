/**
 * A database made before a lower-numbered migration landed (it ran 125, then 122 arrives) is brought up to date by the
 * same `migrate` that `make start` runs, instead of refusing to start.
 */
import t from 'tap';
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { migrate, MIGRATIONS_DIR } from '../../infra/scripts/migrate.ts';
import { adminQuery, urlFor } from '../db.ts';

t.test('a migration numbered below one already run is applied', async (t) => {
  const files = readdirSync(MIGRATIONS_DIR).sort();
  const late = files.find((f) => f.startsWith('1700000000122_'));
  t.ok(late, 'migration 122 is on disk');
  const last = files[files.length - 1];
  t.ok(late! < last, `${late} sorts before the last one, ${last}`);

  const dir = mkdtempSync(join(tmpdir(), 'cc-migrations-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  for (const f of files) if (f !== late) cpSync(join(MIGRATIONS_DIR, f), join(dir, f));

  const name = `cc_migrate_order_${process.pid}`;
  await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  t.teardown(() => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  const url = urlFor(name);

  await migrate(url, 'up', () => undefined, dir);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  t.teardown(() => client.end());
  const ran = async () => (await client.query<{ name: string }>(`SELECT name FROM pgmigrations ORDER BY run_on, id`)).rows.map((r) => r.name);
  t.notOk((await ran()).includes(late!.replace(/\.sql$/, '')), 'the older database had not run 122');
  t.ok((await ran()).includes(last.replace(/\.sql$/, '')), `it had run ${last}`);

  await migrate(url, 'up', () => undefined, MIGRATIONS_DIR);
  const after = await ran();
  t.equal(after[after.length - 1], late!.replace(/\.sql$/, ''), '122 runs last, on the next start');
  t.equal(after.length, files.length, 'every migration on disk has run once');
});
