-- Up Migration
-- Foreign-exchange rates with provenance, and the conversion of spend into a customer's display currency
-- (its billing_currency) at the rate of each amount's own US/Pacific usage day (docs/decisions-billing.md).

-- One row per currency, fixing date and source: `rate` units of `currency` per 1 EUR (the ECB's quotation; every
-- other source is stored the same way, so any pair is a cross rate through EUR).
CREATE TABLE fx_rate (
  currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$' AND currency <> 'EUR'),
  rate_date date NOT NULL,
  rate numeric NOT NULL CHECK (rate > 0),
  source text NOT NULL CHECK (source IN ('ecb', 'gcp-export', 'csv', 'demo')),
  loaded_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (currency, rate_date, source)
);

-- Reads of one account's foreign-currency rows (the monthly rollup holds the display-currency ones).
CREATE INDEX cost_daily_account_currency_idx ON cost_daily (billing_account_id, currency, usage_date);

-- Units of `p_currency` per 1 EUR for a usage day: the latest fixing on the day or before it, at most 7 days before
-- (weekends and holidays take the previous business day's fixing; an older one is no rate at all). On one date a
-- rate from the GCP export wins over the ECB's, which wins over a loaded CSV, then the demo file.
CREATE FUNCTION fx_eur_leg(p_currency text, p_day date)
RETURNS TABLE (rate numeric, rate_date date, source text)
LANGUAGE sql STABLE AS $$
  SELECT 1::numeric, p_day, NULL::text WHERE p_currency = 'EUR'
  UNION ALL
  (SELECT r.rate, r.rate_date, r.source
     FROM fx_rate r
    WHERE p_currency <> 'EUR' AND r.currency = p_currency AND r.rate_date BETWEEN p_day - 7 AND p_day
    ORDER BY r.rate_date DESC, array_position(ARRAY['gcp-export', 'ecb', 'csv', 'demo'], r.source)
    LIMIT 1)
$$;

-- The rate converting 1 `p_from` into `p_to` on a usage day: (EUR→to) / (EUR→from), rounded half away from zero to
-- 10 decimals (the division is carried to 30 decimals first). rate_date is the older leg's fixing date; source names
-- the legs' sources ('ecb', or 'gcp-export+ecb' when they differ). No row when either leg has no rate.
CREATE FUNCTION fx_rate_on(p_from text, p_to text, p_day date)
RETURNS TABLE (rate numeric, rate_date date, source text)
LANGUAGE sql STABLE AS $$
  SELECT round(t.rate::numeric(60,30) / f.rate, 10),
         least(f.rate_date, t.rate_date),
         CASE WHEN f.source IS NULL THEN t.source
              WHEN t.source IS NULL OR t.source = f.source THEN f.source
              ELSE f.source || '+' || t.source END
    FROM fx_eur_leg(p_from, p_day) f, fx_eur_leg(p_to, p_day) t
$$;

-- For one billing account: every (currency other than the display currency, day) of a range with the rate that
-- converts it (rate NULL: no rate within 7 days). The currencies are those of the account's monthly rollup in the
-- range's months (small), so the lookups are (foreign currencies × days), not one per rollup row.
CREATE FUNCTION fx_day_rates(p_display text, p_account text, p_first date, p_last date)
RETURNS TABLE (currency text, day date, rate numeric, rate_date date, source text)
LANGUAGE sql STABLE AS $$
  SELECT c.currency, d.day::date, fx.rate, fx.rate_date, fx.source
    FROM (SELECT DISTINCT m.currency FROM cost_monthly m
           WHERE m.billing_account_id = p_account AND m.currency <> p_display
             AND m.month BETWEEN date_trunc('month', p_first)::date AND p_last) c
   CROSS JOIN generate_series(p_first, p_last, interval '1 day') AS d(day)
    LEFT JOIN LATERAL fx_rate_on(c.currency, p_display, d.day::date) fx ON true
$$;

-- Down Migration
DROP FUNCTION fx_day_rates(text, text, date, date);
DROP FUNCTION fx_rate_on(text, text, date);
DROP FUNCTION fx_eur_leg(text, date);
DROP INDEX cost_daily_account_currency_idx;
DROP TABLE fx_rate;
