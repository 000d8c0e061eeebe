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

/** Records where a batch put its lines (the extents its rows were summed into). */
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

/** An extent of another batch, and whether a file's export can replace that batch's lines (mode 'replace'). */
export interface OtherExtent extends LineExtent {
  /** The batch replaced what it loaded (an export or a windowed load); false: a correction file, whose lines stay. */
  replaceable: boolean;
}

/**
 * The extents of the account's other batches for `providers` that overlap the days from `from` to `to` or the
 * billing periods `periods` would reach (every extent of those periods, and whatever overlaps their days too): what
 * a file may have replaced and what may keep lines beside it on its days.
 */
export async function otherExtents(
  tx: Queryable,
  s: { billingAccountId: string; batchId: string; providers: string[]; from: string; to: string; periods: string[] },
): Promise<OtherExtent[]> {
  const { rows } = await tx.query<OtherExtent>(
    `WITH span AS (
       SELECT least($4::date, min(first_day)) AS first_day, greatest($5::date, max(last_day)) AS last_day FROM cost_line_extent
        WHERE billing_account_id = $1 AND source_batch <> $2 AND provider = ANY($3::text[]) AND invoice_month = ANY($6::text[])
     )
     SELECT e.provider, e.invoice_month, e.first_day, e.last_day, b.mode = 'replace' AS replaceable
       FROM cost_line_extent e JOIN ingest_batch b ON b.id = e.source_batch, span
      WHERE e.billing_account_id = $1 AND e.source_batch <> $2 AND e.provider = ANY($3::text[])
        AND e.first_day <= span.last_day AND e.last_day >= span.first_day`,
    [s.billingAccountId, s.batchId, s.providers, s.from, s.to, s.periods],
  );
  return rows;
}
