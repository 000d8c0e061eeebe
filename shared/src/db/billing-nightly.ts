/** What the nightly billing ingest reads to decide which accounts to load (workers/src/jobs/billing-nightly.ts). */
import type { Queryable } from './pool.ts';

export interface CustomerAccount {
  customer_id: string;
  billing_account_id: string;
}

/** Every billing account every customer lists, in a stable order. */
export async function customerBillingAccounts(db: Queryable): Promise<CustomerAccount[]> {
  const { rows } = await db.query<CustomerAccount>(
    `SELECT c.customer_id, a.account AS billing_account_id
       FROM customer c, unnest(c.billing_account_ids) AS a(account)
      ORDER BY 1, 2`,
  );
  return rows;
}

/**
 * Accounts whose GCP spend came from the local generator (a succeeded gcp-generated batch, still listed by the
 * customer), with the last day of GCP spend they hold: the demo accounts the local nightly keeps current.
 */
export async function generatedAccounts(db: Queryable): Promise<(CustomerAccount & { last_gcp_day: string | null })[]> {
  const { rows } = await db.query<CustomerAccount & { last_gcp_day: string | null }>(
    `SELECT c.customer_id, a.account AS billing_account_id,
            (SELECT max(d.usage_date)::text FROM cost_daily d WHERE d.billing_account_id = a.account AND d.provider = 'gcp') AS last_gcp_day
       FROM customer c, unnest(c.billing_account_ids) AS a(account)
      WHERE EXISTS (SELECT 1 FROM ingest_batch b
                     WHERE b.customer_id = c.customer_id AND b.billing_account_id = a.account
                       AND b.source = 'gcp-generated' AND b.status = 'succeeded')
      ORDER BY 1, 2`,
  );
  return rows;
}

/** Accounts with an AWS or Azure export configured (billing_export_source) that their customer still lists. */
export async function exportAccounts(db: Queryable): Promise<(CustomerAccount & { kind: 'aws-data-exports' | 'azure-cost-exports' })[]> {
  const { rows } = await db.query<CustomerAccount & { kind: 'aws-data-exports' | 'azure-cost-exports' }>(
    `SELECT s.customer_id, s.billing_account_id, s.kind
       FROM billing_export_source s JOIN customer c ON c.customer_id = s.customer_id
      WHERE s.billing_account_id = ANY (c.billing_account_ids)
      ORDER BY 1, 2`,
  );
  return rows;
}
