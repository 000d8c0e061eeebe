/**
 * Port for exchange-rate sources: the ECB's published reference-rate files (`ecb`) or a rates CSV file (`local`).
 * The nightly `fx-rates` job stores what a source returns in `fx_rate`, with the source as provenance.
 */

/** Units of `currency` per 1 EUR on a fixing date, as exact decimal text. */
export interface FxRate {
  currency: string;
  rate_date: string;
  rate: string;
}

export type FxSourceName = 'ecb' | 'gcp-export' | 'csv' | 'demo';

export interface FxRatesSource {
  readonly source: FxSourceName;
  /** Rates from `since` (YYYY-MM-DD) on; a source may return more. */
  rates(since: string): Promise<FxRate[]>;
}
