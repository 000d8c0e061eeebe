/**
 * N cost rows for one billing account over 13 months, built from the deterministic GCP generator: each generated
 * day is repeated with a numbered SKU and a `shard` resource label (and one of 10 project variants), so a big
 * account has many lines per project and service, as real exports do, while the daily rollup stays realistic.
 */
import type { BillingSource, CostRow, SourceItem } from '@cc/shared/ports/billing-source.ts';
import { addDays, billingToday } from '@cc/shared/time.ts';
import { generatedRowsForDay } from '@cc/shared/adapters/bigquery/local.ts';
import { defaultWindow } from '@cc/shared/commands/billing-ingest.ts';

export const BENCH_ACCOUNT = { customerId: 'acme-corp', billingAccountId: '01A2B3-C4D5E6-F7A8B9', currency: 'EUR' };

export function benchWindow(): { from: string; to: string; days: number } {
  const w = defaultWindow(billingToday());
  return { ...w, days: Math.round((Date.parse(w.to) - Date.parse(w.from)) / 86_400_000) + 1 };
}

export function* benchRows(n: number): Generator<CostRow> {
  const w = benchWindow();
  const perDayBase = generatedRowsForDay(BENCH_ACCOUNT, w.from).length;
  const replicas = Math.max(1, Math.ceil(n / w.days / perDayBase));
  let emitted = 0;
  for (let day = w.from; day <= w.to; day = addDays(day, 1)) {
    const base = generatedRowsForDay(BENCH_ACCOUNT, day);
    for (let k = 0; k < replicas; k++) {
      for (const r of base) {
        if (emitted++ >= n) return;
        yield k === 0
          ? r
          : { ...r, project_id: `${r.project_id}-v${k % 10}`, sku: `${r.sku} #${k}`, resource_labels: { ...r.resource_labels, shard: `s${k % 50}` } };
      }
    }
  }
}

export function benchSource(n: number): BillingSource {
  let done = 0;
  return {
    label: `bench rows ×${n}`,
    // no window: the rows may end before the window does when n is small
    position: () => ({ done, total: n }),
    async *rows(): AsyncGenerator<SourceItem> {
      for (const row of benchRows(n)) yield { line: ++done, row };
    },
  };
}
