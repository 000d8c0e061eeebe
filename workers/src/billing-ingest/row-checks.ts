import { MONEY_SCALE, decimalPlaces } from '@cc/shared/decimal.ts';
import { isIsoDate } from '@cc/shared/time.ts';
import type { CostRow, MoneyFieldNames } from '@cc/shared/ports/billing-source.ts';
import { plainDecimal } from './plain-decimal.ts';

// ISO 4217 codes the runtime knows; a code outside it is a typo or a broken export, never a currency.
const KNOWN_CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

/**
 * Longest text a row may carry, in UTF-8 bytes. The rollups' primary keys hold provider, project id, service, label
 * key and value together, and a btree entry must stay under 2,704 bytes: beyond that PostgreSQL fails the whole
 * rollup rebuild ("index row size exceeds maximum"), after the file was read. Limits sit well above what providers
 * allow (GCP labels 63 characters, AWS tag values 256, Azure tag names 512) and below that sum
 * (128 + 256 + 512 + 512 + 1,024 = 2,432 with room for account, customer and currency). Decisions: docs/decisions-billing.md.
 */
export const TEXT_LIMITS = {
  provider_name: 128,
  project_id: 256,
  project_name: 1024,
  service: 512,
  sku: 512,
  resource_id: 2048,
  label_key: 512,
  label_value: 1024,
} as const;

const FIELD_NAMES: Record<'provider_name' | 'project_id' | 'project_name' | 'service' | 'sku' | 'resource_id', string> = {
  provider_name: 'provider name',
  project_id: 'project id',
  project_name: 'project name',
  service: 'service name',
  sku: 'SKU',
  resource_id: 'resource id',
};

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');
// PostgreSQL text cannot hold U+0000: COPY would fail the whole load without saying which line.
const hasNul = (s: string) => s.includes('\u0000');

// A UTF-16 code unit is at most 3 bytes of UTF-8: text this short is within its limit without counting (the count,
// a native call per value, was most of the row check).
const NUL = -1;

/** NUL when the text holds U+0000, its UTF-8 length when over `limit`, else 0 (fine). No message is built for fine text. */
function textProblem(value: string, limit: number): number {
  if (hasNul(value)) return NUL;
  if (value.length * 3 <= limit) return 0;
  const n = bytes(value);
  return n > limit ? n : 0;
}

const textReason = (what: string, problem: number, limit: number) =>
  problem === NUL ? `${what} contains a NUL character` : `${what} is ${problem} bytes long, the limit is ${limit}`;

function checkText(what: string, value: string, limit: number): string | null {
  const problem = textProblem(value, limit);
  return problem === 0 ? null : textReason(what, problem, limit);
}

/**
 * Label objects found fine, when frozen (so they cannot change after the check): a file's rows share a few tag sets,
 * which the FOCUS reader parses once each (focus-row.ts) and hands out frozen, so each is checked once.
 */
const fineLabels = new WeakSet<object>();

function checkLabels(kind: string, labels: Record<string, string>): string | null {
  if (fineLabels.has(labels)) return null;
  const problem = labelProblem(kind, labels);
  if (problem === null && Object.isFrozen(labels)) fineLabels.add(labels);
  return problem;
}

function labelProblem(kind: string, labels: Record<string, string>): string | null {
  for (const key in labels) {
    const keyProblem = textProblem(key, TEXT_LIMITS.label_key);
    const valueProblem = textProblem(labels[key], TEXT_LIMITS.label_value);
    if (keyProblem === 0 && valueProblem === 0) continue;
    const shown = key.length > 40 ? `${key.slice(0, 40)}…` : key;
    return keyProblem !== 0
      ? textReason(`${kind} label key '${shown}'`, keyProblem, TEXT_LIMITS.label_key)
      : textReason(`${kind} label '${shown}' value`, valueProblem, TEXT_LIMITS.label_value);
  }
  return null;
}

const TEXT_FIELDS = ['provider_name', 'project_id', 'project_name', 'service', 'sku', 'resource_id'] as const;
const MONEY_FIELDS = ['cost', 'credits', 'effective_cost'] as const;

/** Digits before the point of a normalised decimal ('-12.5': 2). */
function integerDigits(normalised: string): number {
  const point = normalised.indexOf('.');
  return (point < 0 ? normalised.length : point) - (normalised.charCodeAt(0) === 45 /* - */ ? 1 : 0);
}

/**
 * Checks one normalised row and rewrites its money fields to plain decimal strings.
 * Returns the reason it is bad, or null. Every rule here is source-independent; adapters report
 * their own format problems (bad JSON, bad timestamps) before a row reaches this point.
 */
// Sources yield a day's rows together: the last date found valid needs no second parse (a profile showed the date
// check among the ingest's costliest steps).
let lastValidDate = '';
// A file's rows are not always sorted by day (FOCUS exports mix a month's days): the days found valid are kept too, up
// to VALID_DATES (then the set starts again).
const VALID_DATES = 4096;
const validDates = new Set<string>();
let lastValidProvider = '';
// Per text field, the last value found fine: runs of rows share their provider, project, service and SKU.
const lastFineText: string[] = TEXT_FIELDS.map(() => '');
/** What a provider id looks like (FOCUS names become one in focus-csv.ts); the rollups' CHECK says the same (migration 101). */
const PROVIDER_ID_RE = /^[a-z0-9]+(-[a-z0-9]+)*$/;

export function validateRow(row: CostRow, window?: { from: string; to: string }, names?: MoneyFieldNames): string | null {
  if (!row.usage_date) return 'missing usage date';
  if (row.usage_date !== lastValidDate) {
    if (!validDates.has(row.usage_date)) {
      if (!isIsoDate(row.usage_date)) return `invalid usage date '${row.usage_date}'`;
      if (validDates.size >= VALID_DATES) validDates.clear();
      validDates.add(row.usage_date);
    }
    lastValidDate = row.usage_date;
  }
  if (window && (row.usage_date < window.from || row.usage_date > window.to)) {
    return `usage date ${row.usage_date} is outside the requested window ${window.from}..${window.to}`;
  }
  if (!row.provider) return 'missing provider';
  if (row.provider !== lastValidProvider) {
    if (!PROVIDER_ID_RE.test(row.provider)) return `invalid provider id '${row.provider.slice(0, 80)}'`;
    lastValidProvider = row.provider;
  }
  if (!KNOWN_CURRENCIES.has(row.currency)) return `unknown currency '${row.currency}'`;
  for (let i = 0; i < TEXT_FIELDS.length; i++) {
    const field = TEXT_FIELDS[i];
    const value = row[field] ?? '';
    if (value === lastFineText[i]) continue;
    const bad = checkText(FIELD_NAMES[field], value, TEXT_LIMITS[field]);
    if (bad) return bad;
    lastFineText[i] = value;
  }
  if (row.provider.length > TEXT_LIMITS.provider_name) return `provider id is longer than ${TEXT_LIMITS.provider_name} characters`;
  if (row.invoice_month !== null && !/^\d{6}$/.test(row.invoice_month)) return `invalid invoice month '${row.invoice_month}'`;
  if (row.cost_type !== null && (hasNul(row.cost_type) || row.cost_type.length > 64)) return 'invalid charge category';
  const labels = checkLabels('project', row.project_labels) ?? checkLabels('resource', row.resource_labels);
  if (labels) return labels;
  for (const field of MONEY_FIELDS) {
    const raw = row[field];
    // No amortised figure: the same as billed (the source says so in its notes).
    if (field === 'effective_cost' && (raw === null || raw === undefined)) continue;
    const name = names?.[field] ?? field;
    if (raw === '' || raw === null || raw === undefined) return `missing ${name}`;
    const value = plainDecimal(raw);
    if (value === null) return `${name} '${raw}' is not a number`;
    // Stored exactly or not at all: numeric(24,12) would round a 13th decimal silently.
    if (decimalPlaces(value) > MONEY_SCALE) return `${name} '${raw}' has more than ${MONEY_SCALE} decimal places`;
    if (integerDigits(value) > 24 - MONEY_SCALE) return `${name} '${raw}' is too large`;
    row[field] = value;
  }
  return null;
}
