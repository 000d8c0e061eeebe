/**
 * A `billing-ingest` command whose source is an account's provider export (aws-data-exports, azure-cost-exports):
 * the export sync of that account, then what follows an ingest. A refused access (credentials, permissions, a missing
 * bucket or container) and a rejected file are final for this night: the job fails at once with the reason, kept in
 * the failed set the operator board shows, and on the account's data freshness line; other accounts are their own jobs.
 */
import { UnrecoverableError } from 'bullmq';
import type { Pool } from '@cc/shared/db/pool.ts';
import { BadIngestCommand, type BillingIngestCommand } from '@cc/shared/commands/billing-ingest.ts';
import { ExportStoreAccessError } from '@cc/shared/ports/billing-export-store.ts';
import type { BillingSourceDeps } from '../billing-ingest/open-source.ts';
import { IngestRejected } from '../billing-ingest/ingest.ts';
import { afterIngest, type AfterIngestDeps } from '../billing-ingest/after-ingest.ts';
import { syncExportAccount, type ExportSyncResult } from './sync.ts';

export const isExportSource = (source: BillingIngestCommand['source']): source is 'aws-data-exports' | 'azure-cost-exports' =>
  source === 'aws-data-exports' || source === 'azure-cost-exports';

export async function exportSyncJob(deps: { pool: Pool; billingSources: BillingSourceDeps } & AfterIngestDeps, cmd: BillingIngestCommand): Promise<ExportSyncResult> {
  const stores = deps.billingSources.exportStores;
  try {
    if (!stores) throw new BadIngestCommand('source', `source ${cmd.source} is not configured on this worker`);
    const result = await syncExportAccount({ pool: deps.pool, exportStores: stores }, cmd);
    if (result.loaded.length > 0) await afterIngest(deps, cmd);
    return result;
  } catch (err) {
    if (err instanceof BadIngestCommand || err instanceof ExportStoreAccessError) throw new UnrecoverableError(err.message);
    if (err instanceof IngestRejected) {
      const lines = err.errors.slice(0, 10).map((e) => `line ${e.line}: ${e.reason}`);
      throw new UnrecoverableError(`export delivery rejected, nothing of it loaded (batch ${err.batchId}, ${err.errorCount} bad lines): ${lines.join('; ')}`);
    }
    throw err;
  }
}
