/**
 * The rates CSV: the layout of the ECB's historical file `eurofxref-hist.csv` (inside `eurofxref-hist.zip`), so the
 * same parser reads the ECB's history, a finance team's own file and the demo rates:
 *   Date,USD,JPY,GBP,…,          (a trailing comma is allowed, as the ECB writes it)
 *   2024-10-04,1.0978,161.69,0.83665,…,
 * Each cell is units of the column's currency per 1 EUR on that date; `N/A` or empty = no rate that day (the ECB
 * writes N/A for currencies it no longer or not yet quotes). Rates stay decimal text: no float touches them.
 */
import { normaliseDecimal } from '../decimal.ts';
import type { FxRate } from '../ports/fx-rates.ts';

export interface RatesCsvResult {
  rates: FxRate[];
  /** Problems with their physical line (header = 1); any problem rejects the whole file. */
  errors: { line: number; reason: string }[];
}

const CURRENCY = /^[A-Z]{3}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const RATE = /^\d{1,12}(\.\d{1,12})?$/;

const realDate = (d: string) => DATE.test(d) && new Date(`${d}T00:00:00Z`).toISOString().slice(0, 10) === d;

export function parseRatesCsv(text: string): RatesCsvResult {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const errors: RatesCsvResult['errors'] = [];
  const rates: FxRate[] = [];
  const header = (lines[0] ?? '').split(',').map((h) => h.trim());
  if (header[0] !== 'Date') return { rates, errors: [{ line: 1, reason: "the first column must be 'Date'" }] };
  const columns = header.slice(1);
  if (columns.at(-1) === '') columns.pop();
  const bad = columns.filter((c) => !CURRENCY.test(c) || c === 'EUR');
  if (columns.length === 0 || bad.length > 0) {
    return { rates, errors: [{ line: 1, reason: `columns must be ISO 4217 currency codes other than EUR (rates per 1 EUR)${bad.length ? `: ${bad.join(', ')}` : ''}` }] };
  }
  for (let i = 1; i < lines.length; i++) {
    if (lines[i].trim() === '') continue;
    const cells = lines[i].split(',').map((c) => c.trim());
    const line = i + 1;
    const date = cells[0];
    if (!realDate(date)) {
      errors.push({ line, reason: `'${date}' is not a date (YYYY-MM-DD)` });
      continue;
    }
    if (cells.length > columns.length + 2 || (cells.length === columns.length + 2 && cells.at(-1) !== '')) {
      errors.push({ line, reason: `${cells.length - 1} rates for ${columns.length} currencies` });
      continue;
    }
    columns.forEach((currency, k) => {
      const cell = cells[k + 1] ?? '';
      if (cell === '' || cell === 'N/A') return;
      const n = normaliseDecimal(cell);
      if (n === null || !RATE.test(n) || !/[1-9]/.test(n)) {
        errors.push({ line, reason: `${currency}: '${cell}' is not a positive rate` });
        return;
      }
      rates.push({ currency, rate_date: date, rate: n });
    });
  }
  if (errors.length === 0 && rates.length === 0) errors.push({ line: 1, reason: 'the file holds no rate' });
  return { rates, errors };
}
