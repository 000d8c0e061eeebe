/**
 * One FOCUS 1.0 record (from CSV or Parquet) as a cost row: the column mapping every file format shares, so the same
 * rows give the same lines whatever the file they came in. Mapping decisions: docs/decisions-billing.md.
 */
import { billingDay, isIsoDate } from '@cc/shared/time.ts';
import { plainDecimal } from '../plain-decimal.ts';
import type { CostRow } from '@cc/shared/ports/billing-source.ts';

/**
 * FOCUS ProviderName → the portal's providers (spec 000: gcp, aws, azure). Matched case-insensitively on the name
 * as providers write it (Google's FOCUS export says 'Google Cloud Platform', AWS 'AWS', Azure 'Microsoft').
 */
const PROVIDER_IDS: Record<string, string> = {
  aws: 'aws',
  amazon: 'aws',
  'amazon web services': 'aws',
  'amazon web services, inc.': 'aws',
  microsoft: 'azure',
  'microsoft azure': 'azure',
  'microsoft corporation': 'azure',
  azure: 'azure',
  'google cloud': 'gcp',
  'google cloud platform': 'gcp',
  google: 'gcp',
  gcp: 'gcp',
};

/** The providers the dashboard offers by name; any other is stored under its own slug and counted under 'All'. */
export const PORTAL_PROVIDERS: readonly string[] = ['gcp', 'aws', 'azure'];

// A file holds few provider names: the slug of each is worked out once.
const providerIds = new Map<string, string>();

/** Any other producer keeps its own id: the name lower-cased, non-alphanumerics as '-' (Oracle → oracle). */
export function providerId(providerName: string): string {
  let id = providerIds.get(providerName);
  if (id === undefined) {
    const key = providerName.trim().toLowerCase();
    id = PROVIDER_IDS[key] ?? key.replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
    if (providerIds.size < 1000) providerIds.set(providerName, id);
  }
  return id;
}

/** The columns `focusRow` reads: every file format makes values of these only (the others are never decoded). */
export const READ_COLUMNS: readonly string[] = [
  'ChargePeriodStart', 'ProviderName', 'ChargeCategory', 'BilledCost', 'EffectiveCost', 'BillingPeriodStart', 'SubAccountId',
  'SubAccountName', 'ServiceName', 'SkuId', 'BillingCurrency', 'ResourceId', 'ChargeClass', 'ConsumedQuantity', 'Tags',
];

export const REQUIRED = ['BilledCost', 'BillingCurrency', 'ChargePeriodStart', 'ChargeCategory', 'ProviderName'] as const;

// FOCUS datetimes are UTC ISO 8601; exports write them with a space or a T, with or without a Z.
export const TIMESTAMP_RE = /^(\d{4}-\d{2}-\d{2})[T ]((\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * A FOCUS datetime as epoch ms, or null. The calendar is checked first: Date.parse rolls '2026-02-30' over to
 * 2 March and '24:00' to the next day, and a date that does not exist is a broken file, not something to guess.
 */
export function parseUtc(value: string): number | null {
  const m = TIMESTAMP_RE.exec(value.trim());
  if (!m || !isIsoDate(m[1])) return null;
  if (Number(m[3]) > 23 || Number(m[4]) > 59 || Number(m[5] ?? 0) > 59) return null;
  const offset = m[6] ?? 'Z';
  const ms = Date.parse(`${m[1]}T${m[2]}${offset === 'Z' ? 'Z' : offset.replace(/^([+-]\d{2})(\d{2})$/, '$1:$2')}`);
  return Number.isNaN(ms) ? null : ms;
}

// A file's rows share a few thousand timestamps: each is worked out once (the maps start again past CACHED).
const CACHED = 10_000;
const startDays = new Map<string, string | null>();
const periodMonths = new Map<string, string | false>();
const remember = <V>(map: Map<string, V>, key: string, value: V): V => {
  if (map.size >= CACHED) map.clear();
  map.set(key, value);
  return value;
};

/** ChargePeriodStart → its billing day (YYYY-MM-DD, US/Pacific), or null when it is no valid datetime. */
function startDay(value: string): string | null {
  const day = startDays.get(value);
  if (day !== undefined) return day;
  const ms = parseUtc(value);
  return remember(startDays, value, ms === null ? null : billingDay(ms));
}

/** BillingPeriodStart → its month as the provider writes it (YYYYMM), or false when it is no valid datetime. */
function periodMonth(value: string): string | false {
  const month = periodMonths.get(value);
  if (month !== undefined) return month;
  const m = TIMESTAMP_RE.exec(value.trim());
  // The month as the provider writes it: its periods start at midnight of its own calendar.
  return remember(periodMonths, value, m === null || parseUtc(value) === null ? false : m[1].slice(0, 4) + m[1].slice(5, 7));
}

/** No labels: one frozen object for every row without any. */
export const NO_LABELS: Record<string, string> = Object.freeze({});

// A file's rows share few tag texts (a resource's tags repeat on each of its lines): each is parsed once, and its
// labels handed out frozen, so the checks and the label JSON of the ingest are made once per set too (row-checks.ts,
// rollup-sums.ts). The map starts again past CACHED.
const tagTexts = new Map<string, Record<string, string> | string>();
let lastTagText = '';
let lastTags: Record<string, string> | string = NO_LABELS;

/** Tags as written (a JSON text in CSV, a map or JSON text in Parquet) → string values, or the reason they are bad. */
export function parseTags(raw: unknown): Record<string, string> | string {
  if (raw === null || raw === undefined || raw === '') return NO_LABELS;
  if (typeof raw !== 'string') return tagValues(raw);
  // consecutive lines of a resource carry the same tags: the last text is compared before the map is asked
  if (raw === lastTagText) return lastTags;
  const known = tagTexts.get(raw);
  if (known !== undefined) {
    lastTagText = raw;
    lastTags = known;
    return known;
  }
  let tags: unknown;
  try {
    tags = JSON.parse(raw);
  } catch {
    return remember(tagTexts, raw, `Tags is not valid JSON`);
  }
  const out = tagValues(tags);
  return remember(tagTexts, raw, typeof out === 'string' ? out : Object.freeze(out));
}

function tagValues(tags: unknown): Record<string, string> | string {
  if (typeof tags !== 'object' || tags === null || Array.isArray(tags)) return 'Tags is not a JSON object';
  const out: Record<string, string> = {};
  for (const [k, v] of tags instanceof Map ? tags : Object.entries(tags)) {
    // FOCUS says tag values are strings; a producer writing a number or boolean still means its text.
    if (v !== null && v !== undefined) out[String(k)] = typeof v === 'string' ? v : JSON.stringify(v);
  }
  return out;
}

/** A FOCUS record's columns by name: text (null when absent or NULL), Tags as the file holds them. */
export interface FocusRecord {
  text(name: string): string | null;
  tags(): unknown;
}

export interface FocusRowState {
  hasEffectiveColumn: boolean;
  rowsWithoutEffective: number;
}

/** The record as a cost row, or the reason it is bad (the caller adds where). */
export function focusRow(r: FocusRecord, state: FocusRowState): CostRow | string {
  const start = r.text('ChargePeriodStart');
  const usageDay = start === null ? null : startDay(start);
  if (usageDay === null) return start === null ? 'missing ChargePeriodStart' : `invalid ChargePeriodStart '${start}'`;
  const tags = parseTags(r.tags());
  if (typeof tags === 'string') return tags;
  const providerName = r.text('ProviderName') ?? '';
  const category = r.text('ChargeCategory') ?? '';
  const billed = r.text('BilledCost') ?? '';
  // Amortised cost: a prepaid commitment's purchase row has EffectiveCost 0, the usage it covers carries its share.
  const effective = r.text('EffectiveCost');
  if (state.hasEffectiveColumn && effective === null) state.rowsWithoutEffective++;
  // Credits go to the credits column (as GCP's do) so cost + credits is spend for every provider.
  const isCredit = category.toLowerCase() === 'credit';
  // The billing period is what an export replaces (decisions: "Files: exports, corrections, duplicates").
  const periodStart = r.text('BillingPeriodStart');
  const invoiceMonth = periodStart === null ? null : periodMonth(periodStart);
  if (invoiceMonth === false) return `invalid BillingPeriodStart '${periodStart}'`;
  return {
    provider: providerId(providerName),
    provider_name: providerName.trim(),
    usage_date: usageDay,
    project_id: r.text('SubAccountId') ?? '',
    project_name: r.text('SubAccountName') ?? '',
    service: r.text('ServiceName') ?? '',
    sku: r.text('SkuId') ?? '',
    cost: isCredit ? '0' : billed,
    credits: isCredit ? billed : '0',
    effective_cost: effective,
    currency: (r.text('BillingCurrency') ?? '').trim(),
    invoice_month: invoiceMonth,
    cost_type: category ? category.toLowerCase() : null,
    project_labels: NO_LABELS,
    resource_labels: tags,
    resource_id: r.text('ResourceId') ?? '',
    // only as a hint for explaining anomalies: a value that is not a number is dropped rather than failing the row
    usage_quantity: quantity(r.text('ConsumedQuantity')),
    correction: (r.text('ChargeClass') ?? '').trim().toLowerCase() === 'correction',
  };
}

/** ConsumedQuantity as plain decimal text, or null when absent or not a number. */
function quantity(raw: string | null): string | null {
  if (raw === null || raw.trim() === '') return null;
  const v = plainDecimal(raw.trim());
  return v !== null && v.length <= 40 ? v : null;
}

/** Said in the ingest output when a file cannot give the amortised view (docs/decisions-billing.md, "Billed / Amortised"). */
export const NO_EFFECTIVE_COST_COLUMN = 'the file has no EffectiveCost column: its amortised cost is taken as its billed cost (BilledCost)';
export const noEffectiveCostRows = (n: number) =>
  `${n} row${n === 1 ? ' has' : 's have'} no EffectiveCost: amortised cost taken as billed cost (BilledCost) for ${n === 1 ? 'it' : 'them'}`;

/** A bad amount is reported by its FOCUS column, like every other FOCUS error (credits are BilledCost of Credit rows). */
export const MONEY_FIELDS = { cost: 'BilledCost', credits: 'BilledCost', effective_cost: 'EffectiveCost' } as const;

export const missingColumns = (names: Iterable<string>) => {
  const have = new Set(names);
  return REQUIRED.filter((c) => !have.has(c));
};
