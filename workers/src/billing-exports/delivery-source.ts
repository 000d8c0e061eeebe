/**
 * One export delivery (the part files a manifest lists) as one billing source, so the files are loaded in one batch
 * and one transaction: the period they speak for is replaced once by all of them together. Loaded one part at a time,
 * a second part would replace the first part's period. A bad row is reported with its file and its line in it.
 */
import { basename } from 'node:path';
import type { BillingSource, SourceItem } from '@cc/shared/ports/billing-source.ts';
import { focusCsvSource } from '../billing-ingest/formats/focus-csv.ts';

export function deliverySource(label: string, paths: string[]): BillingSource {
  const parts = paths.map((p) => focusCsvSource(p));
  const first = parts[0];
  return {
    label,
    moneyFields: first?.moneyFields,
    notes: () => [...new Set(parts.flatMap((p) => p.notes?.() ?? []))],
    async *rows(): AsyncGenerator<SourceItem> {
      for (const [i, part] of parts.entries()) {
        const name = basename(paths[i]).replace(/^\d{4}-/, '');
        for await (const item of part.rows()) {
          yield item.row ? item : { line: item.line, error: parts.length > 1 ? `${name}: ${item.error}` : item.error };
        }
      }
    },
  };
}
