/**
 * A billing source that can also hand its rows over in batches (the file readers: one batch per chunk read or per
 * slice of a row group). The ingest takes them so, because a row at a time through async generators cost more than
 * the rows' own work; `rows()` still yields them one by one for every other reader.
 */
import type { BillingSource, SourceItem } from '@cc/shared/ports/billing-source.ts';

export interface BatchedSource extends BillingSource {
  rowBatches(): AsyncIterable<SourceItem[]>;
}

export const hasBatches = (source: BillingSource): source is BatchedSource => typeof (source as Partial<BatchedSource>).rowBatches === 'function';
