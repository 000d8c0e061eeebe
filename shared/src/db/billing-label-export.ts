/**
 * Rows of the Project-Labels-with-Project export with their conversion (issue 17): the original amount and
 * currency, the rate with its fixing date and source, and the amount in the display currency, as the service export.
 */
import { readFileSync } from 'node:fs';
import type { Queryable } from './pool.ts';
import type { ConvertedSpend, MonthSpan, SpendFilter } from './billing-query.ts';

const LABEL_EXPORT_ROWS_SQL = readFileSync(new URL('./sql/billing-label-export-rows.sql', import.meta.url), 'utf8');
const LABEL_EXPORT_ROWS_MONTHLY_SQL = readFileSync(new URL('./sql/billing-label-export-rows-monthly.sql', import.meta.url), 'utf8');

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
  const { rows } = await db.query<LabelExportRow>(LABEL_EXPORT_ROWS_SQL, [
    f.customerId,
    f.billingAccountId,
    range.from,
    range.to,
    f.provider,
    f.projects,
    f.viewer === null ? null : JSON.stringify(f.viewer),
    range.granularity,
    label.kind,
    label.key,
    f.currency,
    f.basis,
  ]);
  return rows;
}

/** The export rows by month from the monthly rollups (MonthSpan); callers without a viewer restriction only. */
export async function labelExportRowsMonthly(
  db: Queryable,
  f: SpendFilter,
  months: MonthSpan,
  label: { kind: 'project' | 'resource'; key: string },
): Promise<LabelExportRow[]> {
  if (f.viewer !== null) throw new Error('the monthly rollups cannot apply a viewer restriction');
  const { rows } = await db.query<LabelExportRow>(LABEL_EXPORT_ROWS_MONTHLY_SQL, [
    f.customerId,
    f.billingAccountId,
    months.from,
    months.to,
    f.provider,
    f.projects,
    f.currency,
    f.basis,
    label.kind,
    label.key,
    months.last,
  ]);
  return rows;
}
