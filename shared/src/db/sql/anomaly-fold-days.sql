-- Folds the cost lines of the days the flagged anomalies' contributors will read and that are not folded yet, or were
-- folded from other batches than now cover them, into anomaly_line_day (migration 120). Runs in the detection pass
-- after anomaly_targets is filled, under the accounts' advisory locks, so two passes never fold one day twice.
-- $1 judged day (date), $2 window days (int).
-- A day's lines are read by cost_line's (account, day) index; on a night only the new day (and any day a batch has
-- loaded or corrected since) is read. A day's mark is the ids of the ingest batches whose extents cover it.
WITH wanted AS (
  SELECT t.customer_id, t.billing_account_id, d.day AS day
    FROM anomaly_targets t
    -- integer days back from $1: planned as $2 + 1 rows (a date series is planned as 1,000, and the folded rows would
    -- then be read by a hashed scan of the whole table rather than one index descent per series and day)
    CROSS JOIN LATERAL (SELECT $1::date - b AS day FROM generate_series(0, $2::int) AS b WHERE $1::date - b >= t.first_seen) AS d
  UNION
  -- the judged day of every account, flagged or not: the nights after find it folded, so a night reads one day
  SELECT a.customer_id, a.billing_account_id, $1::date FROM anomaly_accounts a
), marked AS (
  SELECT w.customer_id, w.billing_account_id, w.day,
         coalesce((SELECT string_agg(DISTINCT e.source_batch::text, ',' ORDER BY e.source_batch::text) FROM cost_line_extent e
                    WHERE e.billing_account_id = w.billing_account_id AND e.customer_id = w.customer_id
                      AND w.day BETWEEN e.first_day AND e.last_day), '') AS batches
    FROM wanted w
)
INSERT INTO anomaly_fold_days (customer_id, billing_account_id, day, batches)
SELECT m.customer_id, m.billing_account_id, m.day, m.batches
  FROM marked m
  LEFT JOIN anomaly_line_day_state s ON s.billing_account_id = m.billing_account_id AND s.customer_id = m.customer_id AND s.usage_date = m.day
 WHERE s.batches IS DISTINCT FROM m.batches
