/**
 * Rows of the Project-Labels-with-Project export with their conversion: the original amount and
 * currency, the rate with its fixing date and source, and the amount in the display currency, as the service export.
 */
import type { Queryable } from './pool.ts';
import { LABEL_EXPORT_ROWS, labelParams, monthParams, rangeParams, type ConvertedSpend, type MonthSpan, type SpendFilter } from './billing-query.ts';

export interface LabelExportRow extends ConvertedSpend {
  bucket: string;
  project_id: string;
  project_name: string;
  /** null: the project's spend without this label key. */
  label_value: string | null;
}

export async function labelExportRows(
  db: Queryable,
  f: SpendFilter,
  range: { from: string; to: string; granularity: 'day' | 'month' },
  label: { kind: 'project' | 'resource'; key: string },
): Promise<LabelExportRow[]> {
  const { rows } = await db.query<LabelExportRow>(LABEL_EXPORT_ROWS.daily.text, LABEL_EXPORT_ROWS.daily.values(labelParams(rangeParams(f, range), label)));
  return rows;
}

/** The export rows by month from the monthly rollups (MonthSpan); callers without a viewer restriction only. */
export async function labelExportRowsMonthly(
  db: Queryable,
  f: SpendFilter,
  months: MonthSpan,
  label: { kind: 'project' | 'resource'; key: string },
): Promise<LabelExportRow[]> {
  const { rows } = await db.query<LabelExportRow>(LABEL_EXPORT_ROWS.monthly.text, LABEL_EXPORT_ROWS.monthly.values(labelParams(monthParams(f, months), label)));
  return rows;
}
