/**
 * Billing read repository: what the dashboard's settings, charts and exports read from the daily rollups
 * (cost_daily, cost_daily_label). Every query is keyed on customer AND billing account; money is converted into the
 * display currency at each usage day's rate and summed in SQL (numeric), and returned as numeric text.
 */
import type { Queryable } from './pool.ts';
import { loadSql, sqlFile } from './load-sql.ts';
import { normaliseDecimal } from '../decimal.ts';
import type { CostBasis } from '../schemas/billing.ts';

/** Where a read's display-currency rows come from: the daily rollups, or the monthly ones (MonthSpan). */
const DAILY = { ROLLUP: sqlFile('billing-rollup-daily'), LABEL_ROLLUP: sqlFile('billing-label-rollup-daily') };
const MONTHLY = { ROLLUP: sqlFile('billing-rollup-monthly'), LABEL_ROLLUP: sqlFile('billing-label-rollup-monthly') };
const SERVICE_CELLS = { daily: loadSql('billing-service-cells', { ROLLUP: DAILY.ROLLUP }), monthly: loadSql('billing-service-cells', { ROLLUP: MONTHLY.ROLLUP }) };
const LABEL_CELLS = { daily: loadSql('billing-label-cells', DAILY), monthly: loadSql('billing-label-cells', MONTHLY) };
const EXPORT_ROWS = { daily: loadSql('billing-export-rows', { ROLLUP: DAILY.ROLLUP }), monthly: loadSql('billing-export-rows', { ROLLUP: MONTHLY.ROLLUP }) };
/** The label export's twins (billing-label-export.ts). */
export const LABEL_EXPORT_ROWS = { daily: loadSql('billing-label-export-rows', DAILY), monthly: loadSql('billing-label-export-rows', MONTHLY) };
const DAILY_TOTALS = loadSql('billing-daily-totals');
const MONTH_TOTALS = loadSql('billing-month-totals');
const CURRENCY_PARTS = loadSql('billing-currency-parts');

export interface LabelFilter {
  label_key: string;
  label_value: string;
}

export interface SpendFilter {
  customerId: string;
  billingAccountId: string;
  /** null = every provider ('all'). */
  provider: string | null;
  /** Empty = all services (only the service views filter on them). */
  services: string[];
  /** Empty = all projects. */
  projects: string[];
  /** customerViewer: only (day, project) whose project labels match one of these; null = unrestricted. */
  viewer: LabelFilter[] | null;
  /** The display currency (the customer's billing_currency): every amount read is converted into it. */
  currency: string;
  /** Billed (cash, as invoiced) or amortised (FOCUS EffectiveCost): every amount read is on this basis. */
  basis: CostBasis;
}

/** A customer's billing settings: accounts (the first is the default), currency and discount. */
export interface CustomerBilling {
  billing_account_ids: string[];
  billing_currency: string;
  billing_dashboard_type: string;
  billing_dashboard_set_discount: string | null;
  /** Tier rows as exact decimal text (read from the jsonb as written). */
  tiers: { threshold_spend: string; percentage: string }[];
}

/** The columns of `CustomerBilling` in a query of `customer` (the row then goes through `withPercentage`). */
export const BILLING_COLUMNS = `billing_account_ids, billing_currency, billing_dashboard_type,
       billing_dashboard_set_discount::text AS billing_dashboard_set_discount,
       coalesce((SELECT jsonb_agg(jsonb_build_object('threshold_spend', t->>'threshold_spend', 'percentage', t->>'percentage'))
                 FROM jsonb_array_elements(billing_dashboard_tier_discount) t
                 WHERE t->>'threshold_spend' IS NOT NULL AND t->>'percentage' IS NOT NULL), '[]') AS tiers`;

/** numeric(9,4) prints '5.0000'; answers show the percentage as entered ('5'). */
export const withPercentage = <T extends CustomerBilling>(c: T): T => ({
  ...c,
  billing_dashboard_set_discount: c.billing_dashboard_set_discount === null ? null : normaliseDecimal(c.billing_dashboard_set_discount),
});

export async function findCustomerBillingSettings(db: Queryable, customerId: string): Promise<CustomerBilling | null> {
  const { rows } = await db.query<CustomerBilling>(`SELECT ${BILLING_COLUMNS} FROM customer WHERE customer_id = $1`, [customerId]);
  return rows[0] ? withPercentage(rows[0]) : null;
}

/** The viewer filters of one user on one customer, read at request time so a change applies at once. */
export async function viewerFilters(db: Queryable, customerId: string, userId: string): Promise<LabelFilter[]> {
  const { rows } = await db.query<LabelFilter>(
    'SELECT label_key, label_value FROM viewer_filter WHERE customer_id = $1 AND user_id = $2 ORDER BY label_key, label_value',
    [customerId, userId],
  );
  return rows;
}

/** The named parameters every billing read takes (the .sql files name them), over the days `from` … `to`. */
const common = (f: SpendFilter, from: string, to: string) => ({
  customer: f.customerId,
  account: f.billingAccountId,
  from,
  to,
  provider: f.provider,
  projects: f.projects,
  services: f.services,
  viewer: f.viewer === null ? null : JSON.stringify(f.viewer),
  currency: f.currency,
  basis: f.basis,
});

/** A range's parameters, for a query reading the daily rollups. */
export const rangeParams = (f: SpendFilter, range: { from: string; to: string; granularity: 'day' | 'month' }) => ({
  ...common(f, range.from, range.to),
  granularity: range.granularity,
});

/**
 * A MonthSpan's parameters, for the same query reading its display-currency rows from the monthly rollups: the days
 * `from` … `last` by month, `last_month` the month of `last`.
 */
export function monthParams(f: SpendFilter, months: MonthSpan) {
  if (f.viewer !== null) throw new Error('the monthly rollups cannot apply a viewer restriction');
  if (months.last.slice(0, 7) !== months.to.slice(0, 7)) throw new Error(`the last day ${months.last} is not in the month ${months.to}`);
  return { ...common(f, months.from, months.last), granularity: 'month' as const, last_month: months.to };
}

const foldParams = (perProject: boolean, fold: ChartFold) => ({ per_project: perProject, top: fold.top, none: fold.none });

/** A label read's parameters: its key, and no service filter (the label views filter on none). */
export const labelParams = <P extends object>(params: P, label: { kind: 'project' | 'resource'; key: string }) => ({
  ...params,
  services: [] as string[],
  label_kind: label.kind,
  label_key: label.key,
});

export interface ServiceCell {
  bucket: string;
  project_id: string;
  project_name: string;
  service: string;
  spend: string;
  /** Monthly cells of a chart with a Top N: series that cannot be among the N, summed per bucket (ChartFold). */
  folded?: boolean;
}

/**
 * A chart's Top N (`top`, 0: all) and its name for a missing service or label value: a cell query answering a whole
 * chart alone sends the series that cannot be among the N summed per bucket, as one folded cell, instead of
 * one by one (the chart then ranks and folds the rest itself, ties included). The daily queries fold the same way when
 * they answer a chart alone.
 */
export interface ChartFold {
  top: number;
  none: string;
}

/**
 * Service cells in no particular order (a chart ranks its series by total, ties by key); `perProject` false sums each
 * bucket's projects per service (project id and name ''), for the chart by service alone.
 */
export async function serviceCells(
  db: Queryable,
  f: SpendFilter,
  range: { from: string; to: string; granularity: 'day' | 'month' },
  perProject = true,
  fold: ChartFold = NO_FOLD,
): Promise<ServiceCell[]> {
  const { rows } = await db.query<ServiceCell>(SERVICE_CELLS.daily.text, SERVICE_CELLS.daily.values({ ...rangeParams(f, range), ...foldParams(perProject, fold) }));
  return rows;
}

const NO_FOLD: ChartFold = { top: 0, none: '' };

/**
 * Months the monthly queries read: `from` … `to` (month starts), the last one up to its day `last` (its end when whole).
 * A partial last month is read from the monthly rollups too when none of its later days has spend (the query decides,
 * in its own snapshot), else from the daily ones.
 */
export interface MonthSpan {
  from: string;
  to: string;
  last: string;
}

/** The same cells as `serviceCells` by month, from the monthly rollup (MonthSpan); unrestricted callers only. */
export async function serviceCellsMonthly(db: Queryable, f: SpendFilter, months: MonthSpan, perProject = true, fold: ChartFold = NO_FOLD): Promise<ServiceCell[]> {
  const { rows } = await db.query<ServiceCell>(SERVICE_CELLS.monthly.text, SERVICE_CELLS.monthly.values({ ...monthParams(f, months), ...foldParams(perProject, fold) }));
  return rows;
}

/** Spend per whole calendar month (yyyy-MM) between two month starts; months without spend are absent. */
export async function monthTotals(db: Queryable, f: SpendFilter, months: { from: string; to: string }): Promise<{ month: string; spend: string }[]> {
  const { rows } = await db.query<{ month: string; spend: string }>(MONTH_TOTALS.text, MONTH_TOTALS.values(common(f, months.from, months.to)));
  return rows;
}

export interface LabelCell {
  bucket: string;
  project_id: string;
  project_name: string;
  /** null: the project's spend without this label key. */
  label_value: string | null;
  spend: string;
  /** See ServiceCell.folded. */
  folded?: boolean;
}

/**
 * Label cells in no particular order (a chart ranks its series by total, ties by key); `perProject` false sums each
 * bucket's projects per label value (project id and name ''), for the charts by label value alone.
 */
export async function labelCells(
  db: Queryable,
  f: SpendFilter,
  range: { from: string; to: string; granularity: 'day' | 'month' },
  label: { kind: 'project' | 'resource'; key: string },
  perProject = true,
  fold: ChartFold = NO_FOLD,
): Promise<LabelCell[]> {
  const { rows } = await db.query<LabelCell>(LABEL_CELLS.daily.text, LABEL_CELLS.daily.values({ ...labelParams(rangeParams(f, range), label), ...foldParams(perProject, fold) }));
  return rows;
}

/** The same cells as `labelCells` by month, from the monthly rollups (MonthSpan); unrestricted callers only. */
export async function labelCellsMonthly(
  db: Queryable,
  f: SpendFilter,
  months: MonthSpan,
  label: { kind: 'project' | 'resource'; key: string },
  perProject = true,
  fold: ChartFold = NO_FOLD,
): Promise<LabelCell[]> {
  const { rows } = await db.query<LabelCell>(LABEL_CELLS.monthly.text, LABEL_CELLS.monthly.values({ ...labelParams(monthParams(f, months), label), ...foldParams(perProject, fold) }));
  return rows;
}

/** Spend per day (days without spend are absent). */
export async function dailyTotals(db: Queryable, f: SpendFilter, from: string, to: string): Promise<{ day: string; spend: string }[]> {
  const { rows } = await db.query<{ day: string; spend: string }>(DAILY_TOTALS.text, DAILY_TOTALS.values(common(f, from, to)));
  return rows;
}

/** Spend in one currency other than the display currency over a range: converted, and not convertible. */
export interface CurrencyPart {
  currency: string;
  /** Original amount of the converted rows, and what they came to in the display currency. */
  converted_original: string;
  converted: string;
  /** Original amount of the rows without a rate within 7 days (never added to any figure). */
  unconverted: string;
  missing_from: string | null;
  missing_to: string | null;
  /** Rate sources used ('ecb', 'demo', 'gcp-export+ecb', …). */
  sources: string[];
}

export async function currencyParts(db: Queryable, f: SpendFilter, from: string, to: string): Promise<CurrencyPart[]> {
  const { rows } = await db.query<CurrencyPart>(CURRENCY_PARTS.text, CURRENCY_PARTS.values(common(f, from, to)));
  return rows;
}

/** An export row's conversion: original spend and currency, the rate (1 in the display currency) with its date and source. */
export interface ConvertedSpend {
  currency: string;
  original: string;
  /** null: no rate within 7 days (spend null too). */
  rate: string | null;
  rate_date: string | null;
  source: string | null;
  spend: string | null;
}

export interface ExportRow extends ConvertedSpend {
  bucket: string;
  project_id: string;
  project_name: string;
  service: string;
}

export async function exportRows(db: Queryable, f: SpendFilter, range: { from: string; to: string; granularity: 'day' | 'month' }): Promise<ExportRow[]> {
  const { rows } = await db.query<ExportRow>(EXPORT_ROWS.daily.text, EXPORT_ROWS.daily.values(rangeParams(f, range)));
  return rows;
}

/** The export rows by month from the monthly rollup (MonthSpan); callers without a viewer restriction only. */
export async function exportRowsMonthly(db: Queryable, f: SpendFilter, months: MonthSpan): Promise<ExportRow[]> {
  const { rows } = await db.query<ExportRow>(EXPORT_ROWS.monthly.text, EXPORT_ROWS.monthly.values(monthParams(f, months)));
  return rows;
}
