/**
 * Carries out one ingest command end to end (checks, source, ingest): the one entry used by the `billing-ingest`
 * job and the `cc ingest` CLI, so both behave the same. What follows a committed ingest is after-ingest.ts.
 */
import type { Pool } from '@cc/shared/db/pool.ts';
import { checkIngestCommand, type BillingIngestCommand } from '@cc/shared/commands/billing-ingest.ts';
import { listProvisionedForBilling } from '@cc/shared/db/provisioning.ts';
import { openBillingSource, type BillingSourceDeps } from './sources/index.ts';
import { runIngest, type IngestRequest, type IngestSummary } from './ingest.ts';

export async function ingestCommand(
  pool: Pool,
  cmd: BillingIngestCommand,
  opts: { sources: BillingSourceDeps; onProgress?: IngestRequest['onProgress']; onOpened?: (label: string) => void },
): Promise<IngestSummary> {
  // The demo generator also bills what was provisioned on the local cloud under this account.
  const provisioned = cmd.source === 'gcp-generated' ? await listProvisionedForBilling(pool, cmd.customer_id, cmd.billing_account_id) : [];
  const opened = await openBillingSource(await checkIngestCommand(pool, cmd), opts.sources, provisioned);
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
