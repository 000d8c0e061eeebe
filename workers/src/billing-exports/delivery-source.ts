/**
 * One export delivery (the part files a manifest lists) as one billing source, so the files are loaded in one batch
 * and one transaction: the period they speak for is replaced once by all of them together. Loaded one part at a time,
 * a second part would replace the first part's period. A bad row is reported with its file and its line in it.
 * Rows go to the ingest in the parts' own batches (rowBatches), as a file dropped in the folder does: one row at a
 * time through async generators cost more than the rows' own work.
 */
import { basename } from 'node:path';
import type { SourceItem } from '@cc/shared/ports/billing-source.ts';
import { focusCsvSource } from '../billing-ingest/formats/focus-csv.ts';
import type { BatchedSource } from '../billing-ingest/formats/batched-source.ts';

export function deliverySource(label: string, paths: string[]): BatchedSource {
  const parts = paths.map((p) => focusCsvSource(p));
  const first = parts[0];
  async function* rowBatches(): AsyncGenerator<SourceItem[]> {
    for (const [i, part] of parts.entries()) {
      const name = basename(paths[i]).replace(/^\d{4}-/, '');
      for await (const batch of part.rowBatches()) {
        // an error names its part when there are several; a batch without one goes through as it is
        if (parts.length === 1 || batch.every((item) => item.row)) yield batch;
        else yield batch.map((item) => (item.row ? item : { line: item.line, error: `${name}: ${item.error}` }));
      }
    }
  }
  return {
    label,
    moneyFields: first?.moneyFields,
    notes: () => [...new Set(parts.flatMap((p) => p.notes?.() ?? []))],
    rowBatches,
    async *rows(): AsyncGenerator<SourceItem> {
      for await (const batch of rowBatches()) yield* batch;
    },
  };
}
