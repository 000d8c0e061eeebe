import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { SETTINGS } from '@cc/shared/config.ts';
import pg from 'pg';
import { configTable, envExample, readmeWithTable } from '../../infra/scripts/config-table.ts';
import { sectionOf, sections } from '../../infra/scripts/docs-map.ts';
import { migrationTables, missingPaths } from '../../infra/scripts/docs-map-sources.ts';
import { build } from '../helper.ts';
import { createTestDatabase } from '../db.ts';

const REGENERATE = 'regenerate with: make docs-config';

t.test('README configuration table matches the settings the code reads', async (t) => {
  const readme = readFileSync('README.md', 'utf8');
  t.ok(readme.includes(configTable()), REGENERATE);
  t.equal(readmeWithTable(readme), readme, REGENERATE);
});

t.test('.env.example lists every setting with its default', async (t) => {
  const example = readFileSync('.env.example', 'utf8');
  t.equal(example, envExample(), REGENERATE);
  const defaults = Object.fromEntries(Object.entries(SETTINGS).map(([name, s]) => [name, s.default]));
  t.same(parseEnv(example), defaults, 'copied to .env it reads back as exactly the defaults');
});

t.test('the code maps of docs/ARCHITECTURE.md and workers/README.md match the code', async (t) => {
  // The routes as the api registers them, from a built api like every route test's.
  const app = await build(t, { seed: false });
  for (const [file, generated] of Object.entries(sections(app.registeredRoutes))) {
    const text = readFileSync(file, 'utf8');
    for (const [name, body] of Object.entries(generated)) t.equal(sectionOf(text, name), body, `${file}, section '${name}': ${REGENERATE}`);
  }
});

t.test('the tables read from the migrations are those of the migrated database', async (t) => {
  const db = await createTestDatabase();
  t.teardown(db.drop);
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  t.teardown(() => client.end());
  const { rows } = await client.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> 'pgmigrations'`,
  );
  const fromMigrations = migrationTables().flatMap((m) => m.tables);
  t.same(fromMigrations.toSorted(), rows.map((r) => r.name).toSorted(), 'infra/scripts/docs-map-sources.ts reads every table a migration leaves');
});

t.test('the decisions index lists every decisions file', async (t) => {
  const index = readFileSync('docs/decisions.md', 'utf8');
  const files = readdirSync('docs').filter((f) => /^decisions-.+\.md$/.test(f));
  t.same(files.filter((f) => !index.includes(`\`${f}\``)), [], 'docs/decisions-*.md missing from the list at the top of docs/decisions.md');
});

t.test('every repository path the maps name exists', async (t) => {
  t.same(missingPaths(readFileSync('docs/ARCHITECTURE.md', 'utf8'), ['.']), [], 'docs/ARCHITECTURE.md');
  t.same(missingPaths(readFileSync('README.md', 'utf8'), ['.']), [], 'README.md');
  // workers/README.md names its files from workers/ (`src/jobs/…`); the new queue of its recipe does not exist yet.
  const recipe = /`src\/jobs\/my-queue\.ts`/g;
  t.same(missingPaths(readFileSync('workers/README.md', 'utf8').replace(recipe, ''), ['workers', '.']), [], 'workers/README.md');
});

t.test('the path check tells a missing path from a present one', async (t) => {
  t.same(missingPaths('`shared/src/queues.ts` `shared/src/schemas/<area>.ts` `web/src/features/*/` `decisions-*.md` `web/dist` `text/plain`', ['.']), []);
  t.same(missingPaths('`infra/cli/cc.ts` `workers/src/adapters/billing/` `ports/mailer.ts` `nowhere.ts`', ['.']), [
    'infra/cli/cc.ts',
    'workers/src/adapters/billing/',
    'ports/mailer.ts (write it from the repository root)',
    'nowhere.ts',
  ]);
});
