/** Prints the README's configuration table from the one settings list (keeps the docs honest). */
import { SETTINGS } from '@cc/shared/config.ts';

export function configTable(): string {
  const rows = Object.entries(SETTINGS).map(([name, s]) => `| \`${name}\` | \`${s.default || '(empty)'}\` | ${s.doc} |`);
  return ['| variable | default | meaning |', '|---|---|---|', ...rows].join('\n');
}

if (process.argv[1]?.endsWith('config-table.ts')) console.log(configTable());
