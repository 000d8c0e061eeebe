import t from 'tap';
import { readFileSync } from 'node:fs';
import { configTable } from '../../infra/scripts/config-table.ts';

t.test('README configuration table matches the settings the code reads', async (t) => {
  const readme = readFileSync('README.md', 'utf8');
  t.ok(readme.includes(configTable()), 'regenerate with: npx tsx infra/scripts/config-table.ts');
});
