/**
 * The replace transaction's setup: one ingest of a billing account at a time, the customer kept from being deleted
 * until it ends, and its memory for the rollup statements.
 */
import type { PoolClient } from 'pg';

/**
 * Serialises ingests of one billing account: two overlapping jobs would otherwise both delete the
 * old slice and both insert, double counting. Held until the transaction ends.
 */
export async function lockBillingAccount(tx: PoolClient, billingAccountId: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 7301))', [`billing-ingest/${billingAccountId}`]);
}

/**
 * Keeps the customer from being deleted until the transaction ends: what the cost lines' foreign key checked once per
 * inserted row, once (migration 065). False when the customer is gone.
 */
export async function lockCustomer(tx: PoolClient, customerId: string): Promise<boolean> {
  const { rowCount } = await tx.query('SELECT 1 FROM customer WHERE customer_id = $1 FOR KEY SHARE', [customerId]);
  return rowCount === 1;
}

/**
 * Memory for the replace transaction's sorts and hash aggregates (the rollup rebuild groups every line of the
 * replaced days): at the default 4 MB they spill to disk and a year of a big account takes several times longer.
 * LOCAL: ends with the transaction, the pooled connection keeps its default.
 */
export async function tuneReplaceTransaction(tx: PoolClient): Promise<void> {
  await tx.query(`SET LOCAL work_mem = '128MB'`);
}
