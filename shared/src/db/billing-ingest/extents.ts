/** Where a batch's lines lie (cost_line_extent): the readers look for a batch's lines within its extents. */
import type { Queryable } from '../pool.ts';

/** Where a batch's lines of one provider and invoice month lie: a cost_line_extent row (migration 100). */
export interface LineExtent {
  provider: string;
  /** '' for lines without one. */
  invoice_month: string;
  first_day: string;
  last_day: string;
}

/** Records where a windowed source's batch put its lines (the extents its rows were summed into). */
export async function saveExtents(tx: Queryable, b: { customerId: string; billingAccountId: string; batchId: string }, extents: LineExtent[]): Promise<void> {
  if (extents.length === 0) return;
  await tx.query(
    `INSERT INTO cost_line_extent (source_batch, customer_id, billing_account_id, provider, invoice_month, first_day, last_day)
     SELECT $1, $2, $3, e.provider, e.invoice_month, e.first_day, e.last_day
       FROM unnest($4::text[], $5::text[], $6::date[], $7::date[]) AS e(provider, invoice_month, first_day, last_day)`,
    [
      b.batchId,
      b.customerId,
      b.billingAccountId,
      extents.map((e) => e.provider),
      extents.map((e) => e.invoice_month),
      extents.map((e) => e.first_day),
      extents.map((e) => e.last_day),
    ],
  );
}

/** Records where a file's batch put its lines: the extents of the staged rows. */
export async function saveStagedExtents(tx: Queryable, b: { customerId: string; billingAccountId: string; batchId: string }): Promise<void> {
  await tx.query(
    `INSERT INTO cost_line_extent (source_batch, customer_id, billing_account_id, provider, invoice_month, first_day, last_day)
     SELECT $1, $2, $3, provider, coalesce(invoice_month, ''), min(usage_date), max(usage_date)
       FROM cost_line_staging GROUP BY provider, coalesce(invoice_month, '')`,
    [b.batchId, b.customerId, b.billingAccountId],
  );
}
