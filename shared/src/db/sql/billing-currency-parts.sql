-- Spend in currencies other than the display currency over a range, per currency, with the chart's filters: what
-- was converted (original amount, converted amount, the rate sources used) and what could not be (no rate within
-- 7 days before its usage day: original amount and the first and last such day). The chart never adds the latter.
-- $1 customer_id, $2 billing_account_id, $3 from, $4 to, $5 provider (NULL = all), $6 projects text[] (empty = all),
-- $7 viewer filters jsonb (NULL = unrestricted), $8 services text[] (empty = all), $9 display currency
-- $10 cost basis: 'billed' (cost + credits) or 'amortised' (plus amortisation, migration 075)
SELECT d.currency,
  coalesce(sum(basis_spend($10, d.cost, d.credits, d.amortisation)) FILTER (WHERE r.rate IS NOT NULL), 0)::text AS converted_original,
  coalesce(sum(basis_spend($10, d.cost, d.credits, d.amortisation) * r.rate) FILTER (WHERE r.rate IS NOT NULL), 0)::text AS converted,
  coalesce(sum(basis_spend($10, d.cost, d.credits, d.amortisation)) FILTER (WHERE r.rate IS NULL), 0)::text AS unconverted,
  to_char(min(d.usage_date) FILTER (WHERE r.rate IS NULL), 'YYYY-MM-DD') AS missing_from,
  to_char(max(d.usage_date) FILTER (WHERE r.rate IS NULL), 'YYYY-MM-DD') AS missing_to,
  coalesce(array_agg(DISTINCT r.source ORDER BY r.source) FILTER (WHERE r.source IS NOT NULL), '{}') AS sources
FROM cost_daily d
LEFT JOIN fx_day_rates($9, $2, $3, $4) r ON r.currency = d.currency AND r.day = d.usage_date
WHERE d.customer_id = $1 AND d.billing_account_id = $2 AND d.usage_date BETWEEN $3 AND $4
  -- two index ranges on (account, currency, day), where <> would read every row of the range (issue 19)
  AND (d.currency < $9 OR d.currency > $9)
  AND ($5::text IS NULL OR d.provider = $5)
  AND (cardinality($6::text[]) = 0 OR d.project_id = ANY($6))
  AND (cardinality($8::text[]) = 0 OR d.service = ANY($8))
  AND ($7::jsonb IS NULL OR (d.usage_date, d.project_id) IN (SELECT usage_date, project_id FROM viewer_allowed_days($1, $2, $3, $4, $7)))
GROUP BY d.currency
ORDER BY d.currency
