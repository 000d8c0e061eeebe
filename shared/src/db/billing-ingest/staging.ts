/**
 * The session-local staging table a file is COPYed into before it replaces anything: its DDL, its statistics, what
 * it holds (days, providers, billing periods), and its rows inserted as the batch's cost lines.
 */
import type { PoolClient } from 'pg';
import { copyTableDdl } from './copy.ts';
import { saveStagedExtents } from './extents.ts';

/**
 * Creates the session-local staging table. Temporary tables are private to the connection and skip
 * the WAL, so a rejected or crashed load leaves nothing behind in shared tables; pooled connections
 * are reused, hence the drop first.
 */
export async function createStaging(client: PoolClient): Promise<void> {
  await client.query('DROP TABLE IF EXISTS cost_line_staging');
  await client.query(copyTableDdl('cost_line_staging', 'TEMP'));
}

export async function dropStaging(client: PoolClient): Promise<void> {
  await client.query('DROP TABLE IF EXISTS cost_line_staging');
}

/**
 * Planner statistics of the staged rows. Temporary tables are never analysed automatically, and without them the
 * rollup's estimates are guesses.
 */
export async function analyzeStaging(client: PoolClient): Promise<void> {
  await client.query('ANALYZE cost_line_staging');
}

/** Days the staged rows cover, plus every day of the source's window (YYYY-MM-DD, sorted). */
export async function stagedDays(tx: PoolClient, window?: { from: string; to: string }): Promise<string[]> {
  const { rows } = await tx.query<{ days: string[] | null }>(
    `SELECT array_agg(d::text ORDER BY d) AS days FROM (
       SELECT DISTINCT usage_date AS d FROM cost_line_staging
       UNION
       SELECT generate_series($1::date, $2::date, interval '1 day')::date
     ) x`,
    [window?.from ?? null, window?.to ?? null],
  );
  return rows[0].days ?? [];
}

/** The providers a run replaces: those the source speaks for, plus any present in its staged rows. */
export async function stagedProviders(tx: PoolClient, declared: readonly string[] = []): Promise<string[]> {
  const { rows } = await tx.query<{ providers: string[] | null }>(
    `SELECT array_agg(p ORDER BY p) AS providers FROM (
       SELECT DISTINCT provider AS p FROM cost_line_staging
       UNION
       SELECT unnest($1::text[])
     ) x`,
    [declared],
  );
  return rows[0].providers ?? [];
}

/**
 * What the staged file holds: its billing periods (YYYYMM), the days of rows without one, and whether every row is
 * a FOCUS correction (ChargeClass 'Correction'), which makes it a correction file.
 */
export async function stagedFileShape(tx: PoolClient): Promise<{ billingPeriods: string[]; daysWithoutPeriod: string[]; allCorrections: boolean }> {
  const { rows } = await tx.query<{ periods: string[] | null; days: string[] | null; all_corrections: boolean | null }>(
    `SELECT array_agg(DISTINCT invoice_month ORDER BY invoice_month) FILTER (WHERE invoice_month IS NOT NULL) AS periods,
       array_agg(DISTINCT usage_date::text ORDER BY usage_date::text) FILTER (WHERE invoice_month IS NULL) AS days,
       bool_and(correction) AS all_corrections
     FROM cost_line_staging`,
  );
  return { billingPeriods: rows[0].periods ?? [], daysWithoutPeriod: rows[0].days ?? [], allCorrections: rows[0].all_corrections ?? false };
}

/** A staged row's amortisation: amortised minus billed; a source without amortisation: 0 (docs/decisions-billing.md, "Billed / Amortised"). */
const STAGED_AMORTISATION = 'coalesce(effective_cost - (cost + credits), 0)';

/** Inserts every staged row as a cost line of the account and batch, and their extents; returns how many. */
export async function insertStaged(tx: PoolClient, s: { customerId: string; billingAccountId: string; batchId: string }): Promise<number> {
  await saveStagedExtents(tx, s);
  const { rowCount } = await tx.query(
    `INSERT INTO cost_line (customer_id, provider, provider_name, billing_account_id, usage_date, project_id, project_name,
       service, sku, cost, credits, currency, invoice_month, cost_type, project_labels, resource_labels, resource_id, source_batch,
       amortisation)
     SELECT $1, provider, provider_name, $2, usage_date, project_id, project_name,
       service, sku, cost, credits, currency, invoice_month, cost_type, project_labels, resource_labels, resource_id, $3,
       ${STAGED_AMORTISATION}
     FROM cost_line_staging`,
    [s.customerId, s.billingAccountId, s.batchId],
  );
  return rowCount ?? 0;
}
