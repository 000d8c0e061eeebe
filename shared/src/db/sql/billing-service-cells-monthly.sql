-- Spend per (month, project, service) over the months $3..$4 up to the day $10 of the last one, for callers without a
-- viewer restriction (the restriction is per day and project, which only the daily rollup can apply), in the display
-- currency. Rows already in the display currency come from the monthly rollup; the last month's too when none of its
-- days after $10 has spend (a range ending yesterday: the month so far is the whole month), decided in this
-- statement's snapshot, else its days up to $10 from the daily rollup. Rows in another currency are converted day by
-- day from the daily rollup (a month's rate changes every business day), through its (account, currency, day) index.
-- $1 customer_id, $2 billing_account_id, $3 first month (yyyy-MM-01), $4 last month (yyyy-MM-01),
-- $5 provider (NULL = all), $6 projects text[] (empty = all), $7 services text[] (empty = all), $8 display currency
-- $9 cost basis: 'billed' (cost + credits) or 'amortised' (plus amortisation, migration 075), $10 last day (in $4's month),
-- $11 per project (false: summed per (month, service), project id and name ''), $12 the chart's Top N (0: all; see
-- cutoff), $13 the chart's name for no service; rows in no particular order
WITH tail AS (
  -- whether the last month's monthly rows are its days up to $10: no later day of it has spend (any provider)
  SELECT NOT EXISTS (
    SELECT 1 FROM cost_daily x
    WHERE x.billing_account_id = $2 AND x.usage_date > $10::date AND x.usage_date < $4::date + interval '1 month' AND x.customer_id = $1
  ) AS whole
), cells AS (
  SELECT m.month, m.project_id, m.project_name, m.service, basis_spend($9, m.cost, m.credits, m.amortisation) AS spend
  FROM cost_monthly m
  WHERE m.customer_id = $1 AND m.billing_account_id = $2 AND m.month BETWEEN $3 AND $4 AND m.currency = $8
    AND (m.month < $4 OR (SELECT whole FROM tail))
    AND ($5::text IS NULL OR m.provider = $5)
    AND (cardinality($6::text[]) = 0 OR m.project_id = ANY($6))
    AND (cardinality($7::text[]) = 0 OR m.service = ANY($7))
  UNION ALL
  SELECT $4::date, d.project_id, d.project_name, d.service, basis_spend($9, d.cost, d.credits, d.amortisation)
  FROM cost_daily d
  WHERE NOT (SELECT whole FROM tail)
    AND d.customer_id = $1 AND d.billing_account_id = $2 AND d.currency = $8 AND d.usage_date BETWEEN $4 AND $10
    AND ($5::text IS NULL OR d.provider = $5)
    AND (cardinality($6::text[]) = 0 OR d.project_id = ANY($6))
    AND (cardinality($7::text[]) = 0 OR d.service = ANY($7))
  UNION ALL
  SELECT date_trunc('month', d.usage_date)::date, d.project_id, d.project_name, d.service, basis_spend($9, d.cost, d.credits, d.amortisation) * r.rate
  FROM cost_daily d
  JOIN fx_day_rates($8, $2, $3::date, $10::date) r ON r.currency = d.currency AND r.day = d.usage_date
  WHERE d.customer_id = $1 AND d.billing_account_id = $2 AND (d.currency < $8 OR d.currency > $8) AND r.rate IS NOT NULL
    AND d.usage_date BETWEEN $3 AND $10
    AND ($5::text IS NULL OR d.provider = $5)
    AND (cardinality($6::text[]) = 0 OR d.project_id = ANY($6))
    AND (cardinality($7::text[]) = 0 OR d.service = ANY($7))
), out AS (
  -- the chart's cells, per project or summed per service ($11), each with the key the chart draws it under
  SELECT c.month, c.project_id, max(c.project_name) AS project_name, c.service, sum(c.spend) AS spend,
    c.project_id || ' / ' || coalesce(nullif(c.service, ''), $13) AS key
  FROM cells c
  WHERE $11
  GROUP BY c.month, c.project_id, c.service
  UNION ALL
  SELECT c.month, '', '', c.service, sum(c.spend), coalesce(nullif(c.service, ''), $13)
  FROM cells c
  WHERE NOT $11
  GROUP BY c.month, c.service
), totals AS (
  SELECT key, sum(spend) AS total FROM out GROUP BY key
), cutoff AS (
  -- Top N ($12; 0: all): the N-th largest series total. A series below it cannot be one of the chart's N, so its
  -- cells are sent summed per month (folded) rather than one by one; the chart ranks the rest (ties included) itself.
  SELECT CASE WHEN $12 > 0 THEN (SELECT total FROM totals ORDER BY total DESC OFFSET greatest($12 - 1, 0) LIMIT 1) END AS total
), kept AS (
  SELECT o.month, o.project_id, o.project_name, o.service, o.spend, (SELECT total FROM cutoff) IS NULL OR t.total >= (SELECT total FROM cutoff) AS keep
  FROM out o
  JOIN totals t USING (key)
)
SELECT to_char(k.month, 'YYYY-MM') AS bucket, k.project_id, k.project_name, k.service, k.spend::text AS spend, false AS folded
FROM kept k
WHERE k.keep
UNION ALL
SELECT to_char(k.month, 'YYYY-MM'), '', '', '', sum(k.spend)::text, true
FROM kept k
WHERE NOT k.keep
GROUP BY k.month
