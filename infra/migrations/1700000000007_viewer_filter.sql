-- Up Migration
-- The customerViewer restriction (spec 000 §6) in one place for every read that applies it (chart cells, totals,
-- settings choices, anomalies): the (day, project) pairs of one customer's billing account whose project labels
-- match one of the viewer's filters. filters is jsonb [{label_key, label_value}]; first_day..last_day bound the days
-- ('-infinity'/'infinity' for the whole history).
-- LANGUAGE sql, STABLE and not STRICT, so the planner inlines the body into the calling query: the filter is planned
-- with the caller's bounds like the clause it replaces, and the rollup's key index serves it.
CREATE FUNCTION viewer_allowed_days(for_customer text, for_account text, first_day date, last_day date, filters jsonb)
RETURNS TABLE (usage_date date, project_id text) LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT v.usage_date, v.project_id
    FROM cost_daily_label v
    JOIN jsonb_to_recordset(filters) AS f(label_key text, label_value text)
      ON v.label_key = f.label_key AND v.label_value = f.label_value
   WHERE v.customer_id = for_customer AND v.billing_account_id = for_account AND v.label_kind = 'project'
     AND v.usage_date BETWEEN first_day AND last_day
$$;

-- Down Migration
DROP FUNCTION viewer_allowed_days(text, text, date, date, jsonb);
