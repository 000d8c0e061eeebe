/** Opens the billing source a checked command names (the job and the `cc ingest` CLI both come through here). */
import { basename } from 'node:path';
import { createHash } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import type { BillingSource } from '@cc/shared/ports/billing-source.ts';
import type { IngestSourceKind } from '@cc/shared/db/billing-ingest/batches.ts';
import { BadIngestCommand, type CheckedIngest } from '@cc/shared/commands/billing-ingest.ts';
import { headOf, openIngestFile, SNIFF_BYTES } from '@cc/shared/commands/ingest-file.ts';
import { sniffText } from '@cc/shared/commands/ingest-text.ts';
import { fileFormatOf } from '@cc/shared/commands/ingest-format.ts';
import type { ExportStores } from '@cc/shared/adapters/billing-exports/from-config.ts';
import type { GcpBillingExport } from '@cc/shared/ports/gcp-billing-export.ts';
import { gcpGeneratedSource, type ProvisionedProject } from '@cc/shared/adapters/bigquery/from-config.ts';
import { focusCsvSource } from './formats/focus-csv.ts';

export interface BillingSourceDeps {
  /** The real GCP export in BigQuery; absent when not configured. */
  bigquery?: GcpBillingExport;
  /** INGEST_DROP_DIR: files are read only inside it (the worker). Unset: any path (the CLI, run from a shell). */
  dropDir?: string;
  /** The AWS / Azure export store of a configured account (workers/src/billing-exports); absent: exports are off. */
  exportStores?: ExportStores;
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
  if (file) {
    const opened = await openIngestFile(file, { dropDir: deps.dropDir });
    return { kind: 'focus-file', source: focusCsvSource(opened.path, { dropDir: deps.dropDir }), fileName: basename(file), fileHash: await textFileHash(opened) };
  }
  if (!window) throw new Error(`a checked ${cmd.source} command has a window`);
  if (cmd.source === 'aws-data-exports' || cmd.source === 'azure-cost-exports') throw new BadIngestCommand('source', `${cmd.source} is read by the export sync, not as one source`);
  if (cmd.source === 'gcp-generated') {
    return {
      kind: cmd.source,
      source: gcpGeneratedSource({ customerId: cmd.customer_id, billingAccountId: cmd.billing_account_id, currency: checked.currency, ...window, provisioned }),
    };
  }
  if (!deps.bigquery) throw new BadIngestCommand('source', 'source bigquery is not configured on this worker');
  return { kind: cmd.source, source: deps.bigquery.source({ billingAccountId: cmd.billing_account_id, ...window }) };
}

/**
 * SHA-256 (hex) of an opened file, read here in the worker (the api no longer reads files inside a request); closes
 * it. A file that is not text at its start is not hashed: the source refuses it at once, and hashing 2 GB first
 * would only delay that.
 */
async function textFileHash(file: Awaited<ReturnType<typeof openIngestFile>>): Promise<string | undefined> {
  try {
    const head = await headOf(file);
    // gzip and Parquet are binary by design; their content is checked as it is read
    if (fileFormatOf(head) === 'csv' && sniffText(head, file.size <= SNIFF_BYTES)) return undefined;
    const hash = createHash('sha256');
    await pipeline(file.handle.createReadStream({ start: 0, autoClose: false }), hash);
    return hash.digest('hex');
  } finally {
    await file.handle.close();
  }
}
