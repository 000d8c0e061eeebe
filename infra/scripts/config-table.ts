/**
 * README's configuration table and `.env.example`, both generated from the one settings list, so neither can
 * drift from what the code reads (test/integration/docs.test.ts fails when they do).
 *   npx tsx infra/scripts/config-table.ts          prints the README table
 *   npx tsx infra/scripts/config-table.ts --write  rewrites README.md's table and .env.example (`make docs-config`)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { SETTINGS } from '@cc/shared/config.ts';

const TABLE_HEADER = '| variable | default | meaning |';

export function configTable(): string {
  const rows = Object.entries(SETTINGS).map(([name, s]) => `| \`${name}\` | \`${s.default || '(empty)'}\` | ${s.doc} |`);
  return [TABLE_HEADER, '|---|---|---|', ...rows].join('\n');
}

// Unquoted, `#` starts a comment and surrounding spaces are trimmed; double quotes keep the value as written.
const envValue = (v: string) => (/[\s#"'`\\]/.test(v) ? `"${v.replace(/"/g, '\\"')}"` : v);

export function envExample(): string {
  const head = [
    '# Every setting CommandCenter reads, with its default. Copy to .env and change what you need:',
    '# the api, the worker and the scripts read .env from the working directory at start, and a variable',
    '# set in the environment wins over .env. Generated from shared/src/config.ts by `make docs-config`.',
  ];
  const body = Object.entries(SETTINGS).flatMap(([name, s]) => [`# ${s.doc}`, `${name}=${envValue(s.default)}`]);
  return [...head, '', ...body, ''].join('\n');
}

/** README with its configuration table (from the header row to the first blank line) replaced. */
export function readmeWithTable(readme: string): string {
  const start = readme.indexOf(TABLE_HEADER);
  if (start < 0) throw new Error(`README.md has no table starting with '${TABLE_HEADER}'`);
  const end = readme.indexOf('\n\n', start);
  return readme.slice(0, start) + configTable() + (end < 0 ? '\n' : readme.slice(end));
}

if (process.argv[1]?.endsWith('config-table.ts')) {
  if (process.argv.includes('--write')) {
    writeFileSync('README.md', readmeWithTable(readFileSync('README.md', 'utf8')));
    writeFileSync('.env.example', envExample());
    console.log('README.md configuration table and .env.example regenerated from shared/src/config.ts');
  } else {
    console.log(configTable());
  }
}
