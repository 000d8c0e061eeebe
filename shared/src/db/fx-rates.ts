/**
 * Exchange rates with provenance (`fx_rate`, migration 1700000000050): units of a currency per 1 EUR per fixing date
 * and source. Conversion itself happens in SQL (fx_rate_on, fx_day_rates) inside the billing reads.
 */
import type { Queryable } from './pool.ts';
import type { FxRate, FxSourceName } from '../ports/fx-rates.ts';

/** Stores rates of one source; a rate already stored for the same currency, date and source is replaced. */
export async function saveRates(db: Queryable, source: FxSourceName, rates: FxRate[]): Promise<number> {
  if (rates.length === 0) return 0;
  const { rowCount } = await db.query(
    `INSERT INTO fx_rate (currency, rate_date, rate, source)
     SELECT c, d, r, $4 FROM unnest($1::text[], $2::date[], $3::numeric[]) AS x(c, d, r)
     ON CONFLICT (currency, rate_date, source) DO UPDATE SET rate = EXCLUDED.rate, loaded_at = now()`,
    [rates.map((r) => r.currency), rates.map((r) => r.rate_date), rates.map((r) => r.rate), source],
  );
  return rowCount ?? 0;
}

export interface RateOn {
  rate: string;
  rate_date: string;
  source: string;
}

/**
 * The rate converting 1 `from` into `to` for a usage day (cross rate through EUR, the latest fixing at most 7 days
 * before the day, 10 decimals), or null when there is none. `from` = `to` is 1 with no fixing.
 */
export async function rateOn(db: Queryable, from: string, to: string, day: string): Promise<RateOn | null> {
  if (from === to) return { rate: '1', rate_date: day, source: '' };
  const { rows } = await db.query<RateOn>(
    `SELECT rate::text AS rate, to_char(rate_date, 'YYYY-MM-DD') AS rate_date, source FROM fx_rate_on($1, $2, $3::date)`,
    [from, to, day],
  );
  return rows[0] ?? null;
}

/** The latest fixing date stored for a source (the nightly job fetches from there on), or null. */
export async function latestRateDate(db: Queryable, source: FxSourceName): Promise<string | null> {
  const { rows } = await db.query<{ d: string | null }>(`SELECT to_char(max(rate_date), 'YYYY-MM-DD') AS d FROM fx_rate WHERE source = $1`, [source]);
  return rows[0]?.d ?? null;
}

/**
 * GCP export rows carry `currency_conversion_rate`: units of the row's currency per 1 USD. For an export in EUR
 * that is EUR per USD, i.e. 1 / (USD per EUR): stored as the USD rate of that day with source 'gcp-export' (carried
 * to 12 decimals). Exports in other currencies give no EUR leg and are left to the ECB's rates.
 */
export async function saveGcpExportRates(db: Queryable, rows: { usage_date: string; currency: string; usd_rate: string }[]): Promise<number> {
  const eur = rows.filter((r) => r.currency === 'EUR');
  if (eur.length === 0) return 0;
  const { rowCount } = await db.query(
    `INSERT INTO fx_rate (currency, rate_date, rate, source)
     SELECT 'USD', d, round(1 / r, 12), 'gcp-export' FROM unnest($1::date[], $2::numeric[]) AS x(d, r) WHERE r > 0
     ON CONFLICT (currency, rate_date, source) DO UPDATE SET rate = EXCLUDED.rate, loaded_at = now()`,
    [eur.map((r) => r.usage_date), eur.map((r) => r.usd_rate)],
  );
  return rowCount ?? 0;
}
