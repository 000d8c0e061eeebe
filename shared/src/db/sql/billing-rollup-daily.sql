-- The display-currency rows of cost_daily a billing read starts from (spliced as /*ROLLUP*/, load-sql.ts): one row
-- per rollup row, (bucket, day, project_id, project_name, service, spend) in the display currency on the cost basis,
-- over the days :from … :to, with the read's filters; a viewer's restriction (per day and project) applies here. The
-- bucket is the day or its month (:granularity), a date.
-- billing-rollup-monthly.sql gives the same rows from the monthly rollup.
SELECT CASE WHEN :granularity = 'month' THEN date_trunc('month', d.usage_date::timestamp)::date ELSE d.usage_date END AS bucket,
  d.usage_date AS day, d.project_id, d.project_name, d.service, basis_spend(:basis, d.cost, d.credits, d.amortisation) AS spend
FROM cost_daily d
WHERE d.customer_id = :customer AND d.billing_account_id = :account AND d.usage_date BETWEEN :from AND :to AND d.currency = :currency
  AND (:provider::text IS NULL OR d.provider = :provider)
  AND (cardinality(:projects::text[]) = 0 OR d.project_id = ANY(:projects))
  AND (cardinality(:services::text[]) = 0 OR d.service = ANY(:services))
  AND (:viewer::jsonb IS NULL OR (d.usage_date, d.project_id) IN (SELECT usage_date, project_id FROM viewer_allowed_days(:customer, :account, :from, :to, :viewer)))
