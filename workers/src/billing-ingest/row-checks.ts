import { MONEY_SCALE, decimalPlaces, normaliseDecimal } from '@cc/shared/decimal.ts';
import { isIsoDate } from '@cc/shared/time.ts';
import type { CostRow } from '@cc/shared/ports/billing-source.ts';

// ISO 4217 codes the runtime knows; a code outside it is a typo or a broken export, never a currency.
const KNOWN_CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

/**
 * Checks one normalised row and rewrites its money fields to plain decimal strings.
 * Returns the reason it is bad, or null. Every rule here is source-independent; adapters report
 * their own format problems (bad JSON, bad timestamps) before a row reaches this point.
 */
export function validateRow(row: CostRow, window?: { from: string; to: string }): string | null {
  if (!row.usage_date) return 'missing usage date';
  if (!isIsoDate(row.usage_date)) return `invalid usage date '${row.usage_date}'`;
  if (window && (row.usage_date < window.from || row.usage_date > window.to)) {
    return `usage date ${row.usage_date} is outside the requested window ${window.from}..${window.to}`;
  }
  if (!row.provider) return 'missing provider';
  if (!KNOWN_CURRENCIES.has(row.currency)) return `unknown currency '${row.currency}'`;
  for (const field of ['cost', 'credits'] as const) {
    const raw = row[field];
    if (raw === '' || raw === null || raw === undefined) return `missing ${field}`;
    const value = normaliseDecimal(raw);
    if (value === null) return `${field} '${raw}' is not a number`;
    // Stored exactly or not at all: numeric(24,12) would round a 13th decimal silently.
    if (decimalPlaces(value) > MONEY_SCALE) return `${field} '${raw}' has more than ${MONEY_SCALE} decimal places`;
    if (value.replace(/^-|\..*$/g, '').length > 24 - MONEY_SCALE) return `${field} '${raw}' is too large`;
    row[field] = value;
  }
  return null;
}
