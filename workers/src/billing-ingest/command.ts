/**
 * Carries out one ingest command end to end (checks, source, ingest): the one entry used by the `billing-ingest`
 * job and the `cc ingest` CLI, so both behave the same. What follows a committed ingest is after-ingest.ts.
 */
import type { Pool } from '@cc/shared/db/pool.ts';
import { checkIngestCommand, type BillingIngestCommand } from '@cc/shared/commands/billing-ingest.ts';
import { listProvisionedForBilling } from '@cc/shared/db/provisioning.ts';
import { findCurrentFileBatch, type CurrentFileBatch } from '@cc/shared/db/billing-batches.ts';
import { batchTotals } from '@cc/shared/db/billing-ingest/batches.ts';
import { openBillingSource, type BillingSourceDeps } from './open-source.ts';
import { runIngest, type IngestRequest, type IngestSummary } from './ingest.ts';
import { ingestNotes, unlistedProviders } from './notes.ts';

/** The answer for a file that is already the account's last load: that batch, nothing read. */
async function alreadyLoaded(pool: Pool, batch: CurrentFileBatch): Promise<IngestSummary> {
  const totals = await batchTotals(pool, batch.id);
  const unlisted = unlistedProviders(totals);
  return {
    batchId: batch.id,
    rows: batch.row_count,
    days: batch.days_replaced,
    from: batch.first_day,
    to: batch.last_day,
    totals,
    mode: batch.mode,
    billingPeriods: batch.billing_periods,
    duplicateOf: null,
    alreadyLoaded: true,
    unlistedProviders: unlisted,
    notes: [
      `this file was loaded by batch ${batch.id} and nothing was loaded into the account since: nothing to do`,
      ...ingestNotes({ mode: batch.mode, billingPeriods: [], duplicateOf: null, unlistedProviders: unlisted }),
    ],
  };
}

export async function ingestCommand(
  pool: Pool,
  cmd: BillingIngestCommand,
  opts: { sources: BillingSourceDeps; onProgress?: IngestRequest['onProgress']; onOpened?: (label: string) => void },
): Promise<IngestSummary> {
  // The demo generator also bills what was provisioned on the local cloud under this account.
  const provisioned = cmd.source === 'gcp-generated' ? await listProvisionedForBilling(pool, cmd.customer_id, cmd.billing_account_id) : [];
  const opened = await openBillingSource(await checkIngestCommand(pool, cmd), opts.sources, provisioned);
  // A job run again after its process died right after COMMIT finds its own batch: reloading would change nothing
  // and the commit would owe a second anomaly and alert pass.
  const current = opened.fileHash ? await findCurrentFileBatch(pool, cmd.billing_account_id, opened.fileHash) : null;
  if (current) return alreadyLoaded(pool, current);
  opts.onOpened?.(opened.source.label);
  return runIngest({
    pool,
    customerId: cmd.customer_id,
    billingAccountId: cmd.billing_account_id,
    sourceKind: opened.kind,
    source: opened.source,
    fileName: opened.fileName,
    fileHash: opened.fileHash,
    onProgress: opts.onProgress,
  });
}
