-- The display-currency rows of cost_daily_label a label read starts from (spliced as /*LABEL_ROLLUP*/): one label
-- key's (bucket, project_id, label_value, spend) over the days :from … :to, with the read's filters and a viewer's
-- restriction. billing-label-rollup-monthly.sql gives the same rows from the monthly label rollup.
SELECT CASE WHEN :granularity = 'month' THEN date_trunc('month', l.usage_date::timestamp)::date ELSE l.usage_date END AS bucket,
  l.project_id, l.label_value, basis_spend(:basis, l.cost, l.credits, l.amortisation) AS spend
FROM cost_daily_label l
WHERE l.customer_id = :customer AND l.billing_account_id = :account AND l.usage_date BETWEEN :from AND :to AND l.currency = :currency
  AND l.label_kind = :label_kind AND l.label_key = :label_key
  AND (:provider::text IS NULL OR l.provider = :provider)
  AND (cardinality(:projects::text[]) = 0 OR l.project_id = ANY(:projects))
  AND (:viewer::jsonb IS NULL OR (l.usage_date, l.project_id) IN (SELECT usage_date, project_id FROM viewer_allowed_days(:customer, :account, :from, :to, :viewer)))
