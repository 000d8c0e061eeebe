/** Picks the billing source a command names (shared by the worker job and the `cc ingest` CLI). */
import { access } from 'node:fs/promises';
import { basename } from 'node:path';
import { addDays, addMonths, billingToday, isIsoDate } from '@cc/shared/time.ts';
import type { BillingSource } from '@cc/shared/ports/billing-source.ts';
import type { IngestSourceKind } from '@cc/shared/db/billing-ingest.ts';
import type { BillingIngestCommand } from '@cc/shared/queues.ts';
import { fileSha256, focusCsvSource } from './focus-csv.ts';
import { gcpGeneratedSource } from './gcp-generator.ts';
import { bigQuerySource, type BigQueryBillingConfig } from './bigquery.ts';
import { BadIngestCommand } from '../../billing/ingest.ts';


export interface BillingSourceDeps {
  /** The real GCP export in BigQuery; absent when not configured. */
  bigquery?: BigQueryBillingConfig;
  /** Today's US/Pacific date; injectable so tests are stable. */
  today?: () => string;
}

/** `months` calendar months ending yesterday: from the 1st of the month `months - 1` before yesterday's month. */
export function defaultWindow(today: string, months = 13): { from: string; to: string } {
  const to = addDays(today, -1);
  return { from: addMonths(`${to.slice(0, 8)}01`, -(months - 1)), to };
}

export interface OpenedSource {
  kind: IngestSourceKind;
  source: BillingSource;
  fileName?: string;
  fileHash?: string;
}

export async function openBillingSource(cmd: BillingIngestCommand, customer: { billing_currency: string }, deps: BillingSourceDeps = {}): Promise<OpenedSource> {
  if (cmd.source === 'focus-file') {
    if (!cmd.file) throw new BadIngestCommand('source focus-file needs a file');
    try {
      await access(cmd.file);
    } catch {
      throw new BadIngestCommand(`file not found: ${cmd.file}`);
    }
    return { kind: cmd.source, source: focusCsvSource(cmd.file), fileName: basename(cmd.file), fileHash: await fileSha256(cmd.file) };
  }
  const dflt = defaultWindow(deps.today?.() ?? billingToday());
  const window = { from: cmd.from ?? dflt.from, to: cmd.to ?? dflt.to };
  if (!isIsoDate(window.from) || !isIsoDate(window.to) || window.from > window.to) {
    throw new BadIngestCommand(`invalid window ${window.from}..${window.to}`);
  }
  if (cmd.source === 'gcp-generated') {
    return {
      kind: cmd.source,
      source: gcpGeneratedSource({ customerId: cmd.customer_id, billingAccountId: cmd.billing_account_id, currency: customer.billing_currency, ...window }),
    };
  }
  if (!deps.bigquery) throw new BadIngestCommand('source bigquery is not configured on this worker');
  return { kind: cmd.source, source: bigQuerySource({ ...deps.bigquery, billingAccountId: cmd.billing_account_id, ...window }) };
}
