-- Spend in currencies other than the display currency over a range, per currency, with the chart's filters: what
-- was converted (original amount, converted amount, the rate sources used) and what could not be (no rate within
-- 7 days before its usage day: original amount and the first and last such day). The chart never adds the latter.
-- :customer, :account, :from … :to, :provider (NULL = all), :projects text[] (empty = all), :viewer filters jsonb
-- (NULL = unrestricted), :services text[] (empty = all), :currency (display), :basis 'billed' (cost + credits) or
-- 'amortised' (plus amortisation, migration 075)
SELECT d.currency,
  coalesce(sum(basis_spend(:basis, d.cost, d.credits, d.amortisation)) FILTER (WHERE r.rate IS NOT NULL), 0)::text AS converted_original,
  coalesce(sum(basis_spend(:basis, d.cost, d.credits, d.amortisation) * r.rate) FILTER (WHERE r.rate IS NOT NULL), 0)::text AS converted,
  coalesce(sum(basis_spend(:basis, d.cost, d.credits, d.amortisation)) FILTER (WHERE r.rate IS NULL), 0)::text AS unconverted,
  to_char(min(d.usage_date) FILTER (WHERE r.rate IS NULL), 'YYYY-MM-DD') AS missing_from,
  to_char(max(d.usage_date) FILTER (WHERE r.rate IS NULL), 'YYYY-MM-DD') AS missing_to,
  coalesce(array_agg(DISTINCT r.source ORDER BY r.source) FILTER (WHERE r.source IS NOT NULL), '{}') AS sources
FROM cost_daily d
LEFT JOIN fx_day_rates(:currency, :account, :from, :to) r ON r.currency = d.currency AND r.day = d.usage_date
WHERE d.customer_id = :customer AND d.billing_account_id = :account AND d.usage_date BETWEEN :from AND :to
  -- two index ranges on (account, currency, day), where <> would read every row of the range
  AND (d.currency < :currency OR d.currency > :currency)
  AND (:provider::text IS NULL OR d.provider = :provider)
  AND (cardinality(:projects::text[]) = 0 OR d.project_id = ANY(:projects))
  AND (cardinality(:services::text[]) = 0 OR d.service = ANY(:services))
  AND (:viewer::jsonb IS NULL OR (d.usage_date, d.project_id) IN (SELECT usage_date, project_id FROM viewer_allowed_days(:customer, :account, :from, :to, :viewer)))
GROUP BY d.currency
ORDER BY d.currency
