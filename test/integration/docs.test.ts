import t from 'tap';
import { readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { SETTINGS } from '@cc/shared/config.ts';
import { configTable, envExample, readmeWithTable } from '../../infra/scripts/config-table.ts';

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
