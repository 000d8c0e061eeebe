/**
 * Export of the Project Labels with Project detail (spec 000 §7), each row converted to the billing currency: one
 * row per bucket × project × label value (blank: unlabelled) × original currency × rate, with the original spend and
 * currency, the rate with its fixing date and source, and the spend in the display currency (blank, and in no total,
 * when no rate lies within 7 days of the usage day), on the chosen cost basis. Columns as the Project-with-Service export.
 */
import type { Pool } from '@cc/shared/db/pool.ts';
import type { ExportAnswer } from '@cc/shared/schemas/billing.ts';
import type { AccountContext } from './account.ts';
import { CONVERSION_HEADERS, conversionCells } from './answer.ts';
import type { ChartSettings } from './settings.ts';
import { labelExportRowsOf, spendFilter, type ChartBody } from './cells.ts';

export async function projectLabelExportConverted(pool: Pool, ctx: AccountContext, s: ChartSettings, body: ChartBody): Promise<ExportAnswer> {
  const f = spendFilter(ctx, s, 'project_label_details', body);
  const label = body.label ?? '';
  const rows = await labelExportRowsOf(pool, f, s.range, { kind: 'project', key: label });
  const currency = ctx.customer.billing_currency;
  return {
    // the spec's seven columns first, then the conversion of the row
    headers: ['Date', 'Project Label', 'Label Value', 'Project ID', 'Project Name', ...CONVERSION_HEADERS],
    rows: rows.map((r) => [r.bucket, label, r.label_value ?? '', r.project_id, r.project_name, ...conversionCells(r, currency, s.basis)]),
  };
}
