/**
 * The slice replacement's deletions: the account's cost lines of (day, provider) slices, or of the billing periods an
 * export replaces, and whether the slices hold anything at all.
 */
import type { PoolClient } from 'pg';

/**
 * Whether the account has rollup rows for any of these (day, provider) slices, i.e. whether the slices hold lines
 * (the ingest keeps the two together in one transaction): a first load need not search its own lines for older ones.
 */
export async function slicesHaveRollups(tx: PoolClient, s: { billingAccountId: string; days: string[]; providers: string[] }): Promise<boolean> {
  const { rowCount } = await tx.query(
    'SELECT 1 FROM cost_daily WHERE billing_account_id = $1 AND usage_date = ANY($2::date[]) AND provider = ANY($3::text[]) LIMIT 1',
    [s.billingAccountId, s.days, s.providers],
  );
  return (rowCount ?? 0) > 0;
}

/** Deletes the account's cost lines of `providers` for `days`, but those of batch `keep` (just loaded); returns how many went. */
export async function deleteSlices(tx: PoolClient, s: { billingAccountId: string; days: string[]; providers: string[]; keep?: string }): Promise<number> {
  const { rowCount } = await tx.query(
    'DELETE FROM cost_line WHERE billing_account_id = $1 AND usage_date = ANY($2::date[]) AND provider = ANY($3::text[]) AND source_batch IS DISTINCT FROM $4::bigint',
    [s.billingAccountId, s.days, s.providers, s.keep ?? null],
  );
  return rowCount ?? 0;
}

/**
 * A provider's export replaces what earlier exports ('replace' batches) loaded for the same providers and billing
 * periods (and, for rows without a period, the same days); lines appended by correction files stay, and so do the
 * lines of batch `keep` (the file itself, already loaded). Returns the (day, provider) slices that lost lines, whose
 * rollups must be made again. The periods' lines are looked for between the first and last day their batches'
 * extents name, by the (account, day) index.
 */
export async function deleteBillingPeriods(
  tx: PoolClient,
  s: { billingAccountId: string; providers: string[]; billingPeriods: string[]; days: string[]; keep: string },
): Promise<{ day: string; provider: string }[]> {
  const { rows } = await tx.query<{ day: string; provider: string }>(
    `WITH span AS (
       SELECT min(first_day) AS first_day, max(last_day) AS last_day FROM cost_line_extent
        WHERE billing_account_id = $1 AND invoice_month = ANY($3::text[]) AND provider = ANY($2::text[]) AND source_batch <> $5
     ), gone AS (
       DELETE FROM cost_line c USING ingest_batch b
       WHERE c.source_batch = b.id AND b.mode = 'replace' AND c.source_batch <> $5
         AND c.billing_account_id = $1 AND c.provider = ANY($2::text[])
         AND ((c.invoice_month = ANY($3::text[]) AND c.usage_date BETWEEN (SELECT first_day FROM span) AND (SELECT last_day FROM span))
              OR c.usage_date = ANY($4::date[]))
       RETURNING c.usage_date, c.provider
     )
     SELECT DISTINCT usage_date::text AS day, provider FROM gone`,
    [s.billingAccountId, s.providers, s.billingPeriods, s.days, s.keep],
  );
  return rows;
}
