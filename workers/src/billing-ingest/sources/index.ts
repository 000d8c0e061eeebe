/** Opens the billing source a checked command names (the job and the `cc ingest` CLI both come through here). */
import { basename } from 'node:path';
import type { BillingSource } from '@cc/shared/ports/billing-source.ts';
import type { IngestSourceKind } from '@cc/shared/db/billing-ingest/batches.ts';
import { BadIngestCommand, fileSha256, type CheckedIngest } from '@cc/shared/commands/billing-ingest.ts';
import { focusCsvSource } from './focus-csv.ts';
import { gcpGeneratedSource, type ProvisionedProject } from './gcp-generator.ts';
import { bigQuerySource, type BigQueryBillingConfig } from './bigquery.ts';

export interface BillingSourceDeps {
  /** The real GCP export in BigQuery; absent when not configured. */
  bigquery?: BigQueryBillingConfig;
}

export interface OpenedSource {
  kind: IngestSourceKind;
  source: BillingSource;
  fileName?: string;
  fileHash?: string;
}

/** `provisioned`: the local cloud's projects under the account, which the generator bills too. */
export async function openBillingSource(checked: CheckedIngest, deps: BillingSourceDeps, provisioned: readonly ProvisionedProject[] = []): Promise<OpenedSource> {
  const { cmd, file, window } = checked;
  if (file) return { kind: cmd.source, source: focusCsvSource(file), fileName: basename(file), fileHash: await fileSha256(file) };
  if (!window) throw new Error(`a checked ${cmd.source} command has a window`);
  if (cmd.source === 'gcp-generated') {
    return {
      kind: cmd.source,
      source: gcpGeneratedSource({ customerId: cmd.customer_id, billingAccountId: cmd.billing_account_id, currency: checked.currency, ...window, provisioned }),
    };
  }
  if (!deps.bigquery) throw new BadIngestCommand('source', 'source bigquery is not configured on this worker');
  return { kind: cmd.source, source: bigQuerySource({ ...deps.bigquery, billingAccountId: cmd.billing_account_id, ...window }) };
}
