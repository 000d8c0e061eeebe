/**
 * The cells of a chart or export: the spend filter of a request, and the rollup rows read as series cells (one per
 * bucket and series key) for the service and label kinds.
 */
import type { Pool } from '@cc/shared/db/pool.ts';
import {
  exportRows,
  exportRowsMonthly,
  labelCells,
  labelCellsMonthly,
  serviceCells,
  serviceCellsMonthly,
  type ExportRow,
  type LabelCell,
  type MonthSpan,
  type ServiceCell,
  type SpendFilter,
} from '@cc/shared/db/billing-query.ts';
import { labelExportRows, labelExportRowsMonthly, type LabelExportRow } from '@cc/shared/db/billing-label-export.ts';
import type { SeriesCell } from '@cc/shared/billing/chart.ts';
import { OTHERS } from '@cc/shared/billing/top-n.ts';
import { monthEnd, monthStart, splitWholeMonths, type DateRange } from '@cc/shared/billing/periods.ts';
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

/**
 * Rows of a range read the fast way when it can be: monthly bars of an unrestricted caller read whole months from
 * the monthly rollups (`monthly`) and only the partial months at the edges from the daily ones (`daily`, by month);
 * a month is never in both, so rows never overlap. A range's last month, when it runs from its first day to the
 * range's end, goes to the monthly query too (a MonthSpan's `last`): a range ending yesterday then reads the month
 * so far from the monthly rollups, since no later day of it has spend yet, which that query checks in its own
 * snapshot (and reads the days otherwise). A query that answers the whole range `alone` may fold a chart's small
 * series (ChartFold). Daily bars and viewers (a restriction per day and project) read the daily
 * rollups alone.
 */
async function splitByMonth<Row extends { bucket: string }>(
  f: SpendFilter,
  range: DateRange,
  daily: (r: { from: string; to: string; granularity: 'day' | 'month' }, alone: boolean) => Promise<Row[]>,
  monthly: (months: MonthSpan, alone: boolean) => Promise<Row[]>,
): Promise<Row[]> {
  if (range.granularity === 'day' || f.viewer !== null) return byBucket(await daily({ from: range.start_date, to: range.end_date, granularity: range.granularity }, true));
  const split = splitWholeMonths(range.start_date, range.end_date);
  let months: MonthSpan | null = split.months ? { ...split.months, last: monthEnd(split.months.to) } : null;
  let days = split.days;
  const end = days.at(-1);
  if (end && end.to === range.end_date && end.from === monthStart(end.from)) {
    months = { from: months?.from ?? end.from, to: end.from, last: end.to };
    days = days.slice(0, -1);
  }
  const alone = (months ? 1 : 0) + days.length === 1;
  const parts = await Promise.all([months ? monthly(months, alone) : Promise.resolve([]), ...days.map((d) => daily({ ...d, granularity: 'month' }, alone))]);
  return byBucket(parts.flat());
}

/**
 * Rows in bucket order, a bucket's rows as the query gave them (a stable sort): the queries return cells in no order,
 * and a chart takes a series' project name from its first cell, so the earliest bucket's.
 */
const byBucket = <Row extends { bucket: string }>(rows: Row[]): Row[] => rows.sort((a, b) => (a.bucket < b.bucket ? -1 : a.bucket > b.bucket ? 1 : 0));

/**
 * Service cells of a range (in no particular order within a bucket); `perProject` false: summed per service; `top`:
 * the chart's Top N (0: every series one by one), which a query answering alone may fold (ChartFold).
 */
export const serviceRows = (pool: Pool, f: SpendFilter, range: DateRange, perProject = true, top = 0): Promise<ServiceCell[]> =>
  splitByMonth(
    f,
    range,
    (r, alone) => serviceCells(pool, f, r, perProject, { top: alone ? top : 0, none: NO_SERVICE }),
    (m, alone) => serviceCellsMonthly(pool, f, m, perProject, { top: alone ? top : 0, none: NO_SERVICE }),
  );

/** Label cells of a range, as serviceRows: `perProject` false: summed per label value; `top` as there. */
export const labelRows = (
  pool: Pool,
  f: SpendFilter,
  range: DateRange,
  label: { kind: 'project' | 'resource'; key: string },
  perProject = true,
  top = 0,
): Promise<LabelCell[]> =>
  splitByMonth(
    f,
    range,
    (r, alone) => labelCells(pool, f, r, label, perProject, { top: alone ? top : 0, none: NO_LABEL }),
    (m, alone) => labelCellsMonthly(pool, f, m, label, perProject, { top: alone ? top : 0, none: NO_LABEL }),
  );

/** The Project-Labels-with-Project export's rows (billing-label-export-rows.sql), split like the chart's cells. */
export const labelExportRowsOf = (pool: Pool, f: SpendFilter, range: DateRange, label: { kind: 'project' | 'resource'; key: string }): Promise<LabelExportRow[]> =>
  splitByMonth(f, range, (r) => labelExportRows(pool, f, r, label), (m) => labelExportRowsMonthly(pool, f, m, label));

/** The Project-with-Service export's rows (billing-export-rows.sql), split like the chart's cells. */
export const serviceExportRows = (pool: Pool, f: SpendFilter, range: DateRange): Promise<ExportRow[]> =>
  splitByMonth(f, range, (r) => exportRows(pool, f, r), (m) => exportRowsMonthly(pool, f, m));

/** A bucket's series that cannot be among the chart's Top N, summed by the query: drawn as Others. */
const foldedCell = (r: { bucket: string; spend: string }): SeriesCell => ({
  bucket: r.bucket,
  key: OTHERS,
  amount: toUnits(r.spend),
  group: OTHERS,
  project_id: null,
  project_name: null,
  folded: true,
});

export async function seriesCells(pool: Pool, f: SpendFilter, s: ChartSettings, kind: ChartKind, body: ChartBody): Promise<SeriesCell[]> {
  if (isServiceKind(kind)) {
    const rows = await serviceRows(pool, f, s.range, kind !== 'by_service', s.top);
    return rows.map((r) => {
      if (r.folded) return foldedCell(r);
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
  const rows = await labelRows(pool, f, s.range, { kind: labelKind(kind), key: body.label ?? '' }, detail, s.top);
  return rows.map((r) => {
    if (r.folded) return foldedCell(r);
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
