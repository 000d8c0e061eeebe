/**
 * The cells of a chart or export: the spend filter of a request, and the rollup rows read as series cells (one per
 * bucket and series key) for the service and label kinds.
 */
import { withTransaction, type Pool, type Queryable } from '@cc/shared/db/pool.ts';
import {
  exportRows,
  exportRowsMonthly,
  labelCells,
  labelCellsMonthly,
  partsHoldTheirMonth,
  serviceCells,
  serviceCellsMonthly,
  type ExportRow,
  type LabelCell,
  type ServiceCell,
  type SpendFilter,
} from '@cc/shared/db/billing-query.ts';
import { labelExportRows, labelExportRowsMonthly, type LabelExportRow } from '@cc/shared/db/billing-label-export.ts';
import type { SeriesCell } from '@cc/shared/billing/chart.ts';
import { monthStart, splitWholeMonths, type DateRange } from '@cc/shared/billing/periods.ts';
import { toUnits } from '@cc/shared/billing/money.ts';
import { errors } from '../errors.ts';
import type { AccountContext } from './account.ts';
import type { ChartSettings } from './settings.ts';

export type ChartKind = 'by_service' | 'service_details' | 'project_labels' | 'project_label_details' | 'resource_labels' | 'resource_label_details';

/** Series name of spend that does not carry the chosen label key. */
export const NO_LABEL = '(no label)';
export const NO_SERVICE = '(no service)';

export interface ChartBody {
  services?: string[];
  projects?: string[];
  /** The label key of the label kinds. */
  label?: string;
}

const isServiceKind = (k: ChartKind) => k === 'by_service' || k === 'service_details';
export const isLabelKind = (k: ChartKind) => !isServiceKind(k);
const labelKind = (k: ChartKind): 'project' | 'resource' => (k.startsWith('project') ? 'project' : 'resource');

export function spendFilter(ctx: AccountContext, s: ChartSettings, kind: ChartKind, body: ChartBody): SpendFilter {
  return {
    customerId: ctx.customerId,
    billingAccountId: ctx.billingAccountId,
    provider: s.provider === 'all' ? null : s.provider,
    services: isServiceKind(kind) ? (body.services ?? []) : [],
    projects: body.projects ?? [],
    viewer: ctx.viewer,
    currency: ctx.customer.billing_currency,
    basis: s.basis,
  };
}

type RangePart = { from: string; to: string; granularity: 'day' | 'month' };
type MonthRange = { from: string; to: string };

/**
 * Rows of a range read the fast way when it can be: monthly bars of an unrestricted caller read whole months from
 * the monthly rollups (`monthly`) and the partial months at the edges from the daily ones (`daily`, by month); a
 * month is never in both, so rows never overlap. An edge month whose data lies wholly inside the range (the current
 * month of a chart that ends yesterday, after a nightly ingest that ends yesterday too) is read from the monthly
 * rollups as well: the check and the monthly read share one REPEATABLE READ snapshot, so an ingest committing in
 * between cannot slip a day outside the range into the answer. Each part holds its own buckets in answer order, so
 * a stable sort by bucket gives the order the one daily query gives. Daily bars and viewers (a restriction per day
 * and project) read the daily rollups alone.
 */
async function splitByMonth<Row extends { bucket: string }>(
  pool: Pool,
  f: SpendFilter,
  range: DateRange,
  daily: (db: Queryable, r: RangePart) => Promise<Row[]>,
  monthly: (db: Queryable, months: MonthRange) => Promise<Row[]>,
): Promise<Row[]> {
  if (range.granularity === 'day' || f.viewer !== null) return daily(pool, { from: range.start_date, to: range.end_date, granularity: range.granularity });
  const split = splitWholeMonths(range.start_date, range.end_date);
  const parts = await withTransaction(pool, async (tx) => {
    await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    const whole = await partsHoldTheirMonth(tx, f.billingAccountId, split.days);
    // whole edge months join the whole months: they lie at the ends, so the months stay one contiguous range
    const starts = [...split.days.filter((_, i) => whole[i]).map((d) => monthStart(d.from)), ...(split.months ? [split.months.from, split.months.to] : [])].sort();
    const months = starts.length > 0 ? { from: starts[0]!, to: starts.at(-1)! } : null;
    // the other edges' daily reads need no shared snapshot: they run beside, on other connections
    return Promise.all([months ? monthly(tx, months) : Promise.resolve([]), ...split.days.filter((_, i) => !whole[i]).map((d) => daily(pool, { ...d, granularity: 'month' }))]);
  });
  return parts.flat().sort((a, b) => (a.bucket < b.bucket ? -1 : a.bucket > b.bucket ? 1 : 0));
}

export const serviceRows = (pool: Pool, f: SpendFilter, range: DateRange): Promise<ServiceCell[]> =>
  splitByMonth(pool, f, range, (db, r) => serviceCells(db, f, r), (db, m) => serviceCellsMonthly(db, f, m));

export const labelRows = (pool: Pool, f: SpendFilter, range: DateRange, label: { kind: 'project' | 'resource'; key: string }): Promise<LabelCell[]> =>
  splitByMonth(pool, f, range, (db, r) => labelCells(db, f, r, label), (db, m) => labelCellsMonthly(db, f, m, label));

/** The Project-Labels-with-Project export's rows (billing-label-export-rows.sql), split like the chart's cells. */
export const labelExportRowsOf = (pool: Pool, f: SpendFilter, range: DateRange, label: { kind: 'project' | 'resource'; key: string }): Promise<LabelExportRow[]> =>
  splitByMonth(pool, f, range, (db, r) => labelExportRows(db, f, r, label), (db, m) => labelExportRowsMonthly(db, f, m, label));

/** The Project-with-Service export's rows (billing-export-rows.sql), split like the chart's cells. */
export const serviceExportRows = (pool: Pool, f: SpendFilter, range: DateRange): Promise<ExportRow[]> =>
  splitByMonth(pool, f, range, (db, r) => exportRows(db, f, r), (db, m) => exportRowsMonthly(db, f, m));

export async function seriesCells(pool: Pool, f: SpendFilter, s: ChartSettings, kind: ChartKind, body: ChartBody): Promise<SeriesCell[]> {
  if (isServiceKind(kind)) {
    const rows = await serviceRows(pool, f, s.range);
    return rows.map((r) => {
      const service = r.service || NO_SERVICE;
      return {
        bucket: r.bucket,
        key: kind === 'by_service' ? service : `${r.project_id} / ${service}`,
        amount: toUnits(r.spend),
        group: service,
        project_id: kind === 'by_service' ? null : r.project_id,
        project_name: kind === 'by_service' ? null : r.project_name,
      };
    });
  }
  const detail = kind.endsWith('_details');
  const rows = await labelRows(pool, f, s.range, { kind: labelKind(kind), key: body.label ?? '' });
  return rows.map((r) => {
    const value = r.label_value ?? NO_LABEL;
    return {
      bucket: r.bucket,
      key: detail ? `${value} / ${r.project_id}` : value,
      amount: toUnits(r.spend),
      group: value,
      project_id: detail ? r.project_id : null,
      project_name: detail ? r.project_name : null,
    };
  });
}

/** The chosen label key of a label chart body; 400 when missing. */
export function labelOf(kind: ChartKind, body: Record<string, unknown>): string | undefined {
  if (!isLabelKind(kind)) return undefined;
  const field = kind.startsWith('project') ? 'project_label' : 'resource_label';
  const v = body[field];
  if (typeof v !== 'string' || v.trim() === '') throw new errors.badRequest(`${field}: This field is required`);
  return v;
}

/** A chart route's validated body as the answer reads it. */
export function chartBodyOf(kind: ChartKind, body: Record<string, unknown>): ChartBody {
  return {
    services: body.services as string[] | undefined,
    projects: body.projects as string[] | undefined,
    label: labelOf(kind, body),
  };
}
