/**
 * FX_RATES=local (default): rates read from a CSV file in the rates-CSV layout (fx-csv.ts). FX_RATES_FILE names
 * it (source 'csv'); empty, it is the repository's demo rates file (source 'demo', marked as such in the UI).
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseRatesCsv } from '../../billing/fx-csv.ts';
import type { FxRatesSource } from '../../ports/fx-rates.ts';

export const DEMO_RATES_FILE = fileURLToPath(new URL('../../../../infra/data/fx/demo-rates.csv', import.meta.url));

export function localRatesSource(file: string): FxRatesSource {
  const path = file || DEMO_RATES_FILE;
  return {
    source: file ? 'csv' : 'demo',
    async rates(since) {
      const parsed = parseRatesCsv(await readFile(path, 'utf8'));
      if (parsed.errors.length > 0) throw new Error(`${path}: line ${parsed.errors[0].line}: ${parsed.errors[0].reason}`);
      return parsed.rates.filter((r) => r.rate_date >= since);
    },
  };
}
