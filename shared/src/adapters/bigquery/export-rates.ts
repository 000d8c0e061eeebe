/**
 * The rates a GCP billing export carries: each row's `currency` and `currency_conversion_rate` (units of that
 * currency per 1 USD). One rate per usage day and currency is kept; should the rows of one day disagree (Cloud
 * Billing converts at one rate per day, so they should not), the rate carrying the most cost wins, so the rate is
 * the one most of the day's spend was billed at, whatever order BigQuery returns the rows in.
 */
import { toUnits } from '../../billing/money.ts';
import type { ExportRate } from '../../ports/billing-source.ts';

const RATE = /^\d+(\.\d+)?$/;

export class ExportRates {
  private readonly byDay = new Map<string, Map<string, bigint>>();

  /** Counts one row's cost towards its rate; a rate that is not a positive decimal is ignored. */
  add(usageDate: string, currency: string, rate: string, cost: string): void {
    if (!RATE.test(rate) || toUnits(rate) <= 0n || !/^[A-Z]{3}$/.test(currency) || currency === 'USD') return;
    const key = `${usageDate}|${currency}`;
    const weights = this.byDay.get(key) ?? new Map<string, bigint>();
    let weight = 0n;
    try {
      weight = toUnits(cost);
    } catch {
      // a bad cost is reported by the row checks; it weighs nothing here
    }
    weights.set(rate, (weights.get(rate) ?? 0n) + (weight < 0n ? -weight : weight));
    this.byDay.set(key, weights);
  }

  list(): ExportRate[] {
    const out: ExportRate[] = [];
    for (const [key, weights] of [...this.byDay].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const [usage_date, currency] = key.split('|');
      // heaviest first; equal weights: the smaller rate, so the choice never depends on row order
      const [usd_rate] = [...weights].sort(([ra, wa], [rb, wb]) => (wa === wb ? (toUnits(ra) < toUnits(rb) ? -1 : 1) : wa > wb ? -1 : 1))[0];
      out.push({ usage_date, currency, usd_rate });
    }
    return out;
  }
}
