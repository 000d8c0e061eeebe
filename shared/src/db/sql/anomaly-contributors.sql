-- What drove each flagged anomaly of the day, from the cost lines under its rollups. Runs in the detection pass, after
-- the anomalies are stored, from the temp tables anomaly_targets (anomaly-targets.sql: the flagged anomalies, each with
-- its series' first day and its customer's cost basis) and anomaly_lines (anomaly-contributor-lines.sql: their lines,
-- converted and summed).
-- $1 contributors listed per dimension (int).
-- The baseline is the detection's: the series' days from its first day in the window to the day before the judged day
-- (mean = baseline sum / those days), spend on the customer's cost basis, every day converted into the display currency
-- at that day's rate (a foreign line without a rate within 7 days is left out, as the rollups were). A value's
-- contribution is its day spend minus its mean: over all values of a dimension they add up to the rise. The rest row
-- of a dimension is the anomaly's own day and mean minus the listed ones, so listed + rest = rise exactly.
-- What it costs (docs/decisions-insights.md): reading the account's lines of the window is most of it, done before this
-- statement (anomaly-contributor-lines.sql) so that it can be read in parallel.
INSERT INTO anomaly_contributor (anomaly_id, dimension, rank, label_key, value, day_amount, mean_amount, contribution,
                                 day_cost, mean_cost, day_credits, mean_credits, day_amortisation, mean_amortisation,
                                 day_quantity, mean_quantity, in_baseline)
WITH targets AS (SELECT * FROM anomaly_targets), lines AS (SELECT * FROM anomaly_lines), label_keys AS (
  SELECT DISTINCT anomaly_id, k FROM lines CROSS JOIN LATERAL jsonb_object_keys(resource_labels) AS k
), dims AS (
  SELECT anomaly_id, 'sku' AS dimension, NULL::text AS label_key, sku AS value, on_day, spend, cost, credits, amortisation, quantity, quantified FROM lines
  UNION ALL
  SELECT anomaly_id, 'resource', NULL, resource_id, on_day, spend, cost, credits, amortisation, quantity, quantified FROM lines
  UNION ALL
  -- every key partitions the lines (a line without it counts under ''); one key is kept per anomaly below
  SELECT l.anomaly_id, 'label', k.k, coalesce(l.resource_labels ->> k.k, ''), l.on_day, l.spend, l.cost, l.credits, l.amortisation, l.quantity, l.quantified
    FROM lines l JOIN label_keys k ON k.anomaly_id = l.anomaly_id
), agg AS (
  SELECT d.anomaly_id, d.dimension, d.label_key, d.value,
         coalesce(sum(d.spend) FILTER (WHERE d.on_day), 0) AS day_amount,
         coalesce(sum(d.spend) FILTER (WHERE NOT d.on_day), 0) / t.mean_days AS mean_amount,
         coalesce(sum(d.cost) FILTER (WHERE d.on_day), 0) AS day_cost,
         coalesce(sum(d.cost) FILTER (WHERE NOT d.on_day), 0) / t.mean_days AS mean_cost,
         coalesce(sum(d.credits) FILTER (WHERE d.on_day), 0) AS day_credits,
         coalesce(sum(d.credits) FILTER (WHERE NOT d.on_day), 0) / t.mean_days AS mean_credits,
         coalesce(sum(d.amortisation) FILTER (WHERE d.on_day), 0) AS day_amortisation,
         coalesce(sum(d.amortisation) FILTER (WHERE NOT d.on_day), 0) / t.mean_days AS mean_amortisation,
         CASE WHEN bool_and(d.quantified) FILTER (WHERE d.on_day) THEN sum(d.quantity) FILTER (WHERE d.on_day) END AS day_quantity,
         CASE WHEN bool_and(d.quantified) FILTER (WHERE NOT d.on_day) THEN sum(d.quantity) FILTER (WHERE NOT d.on_day) / t.mean_days END AS mean_quantity,
         bool_or(NOT d.on_day) AS in_baseline
    FROM dims d JOIN targets t ON t.anomaly_id = d.anomaly_id
   GROUP BY d.anomaly_id, d.dimension, d.label_key, d.value, t.mean_days
), scored AS (
  SELECT a.*, a.day_amount - a.mean_amount AS contribution FROM agg a
), key_tops AS (
  SELECT DISTINCT ON (anomaly_id, label_key) anomaly_id, label_key, contribution, day_amount,
         max(contribution) OVER (PARTITION BY anomaly_id) AS best
    FROM scored WHERE dimension = 'label'
   ORDER BY anomaly_id, label_key, contribution DESC, value
), best_key AS (
  -- Among the keys whose top value adds at least half of what the best one adds, the one whose top value's day spend
  -- is most made of rise: a coarse key on every line (env=prod) adds as much as the value that rose but names nothing.
  SELECT DISTINCT ON (anomaly_id) anomaly_id, label_key FROM key_tops
   WHERE contribution >= best / 2 OR contribution = best
   ORDER BY anomaly_id, contribution / nullif(day_amount, 0) DESC NULLS LAST, contribution DESC, label_key
), ranked AS (
  SELECT s.*, row_number() OVER (PARTITION BY s.anomaly_id, s.dimension ORDER BY s.contribution DESC, s.value) AS rank
    FROM scored s
   WHERE s.dimension <> 'label' OR (s.anomaly_id, s.label_key) IN (SELECT anomaly_id, label_key FROM best_key)
), listed AS (
  -- only values that add to the rise are drivers
  SELECT * FROM ranked WHERE rank <= $1::int AND contribution > 0
), dimensions AS (
  SELECT t.anomaly_id, d.dimension, (SELECT b.label_key FROM best_key b WHERE b.anomaly_id = t.anomaly_id AND d.dimension = 'label') AS label_key,
         t.to_date_cost, t.mean_cost
    FROM targets t CROSS JOIN (VALUES ('sku'), ('resource'), ('label')) AS d(dimension)
   -- no label row without a key; sku and resource always have their rest (all of the rise when no line was found)
   WHERE d.dimension <> 'label' OR EXISTS (SELECT 1 FROM best_key b WHERE b.anomaly_id = t.anomaly_id)
)
SELECT anomaly_id, dimension, rank, label_key, value, day_amount, mean_amount, contribution,
       day_cost, mean_cost, day_credits, mean_credits, day_amortisation, mean_amortisation, day_quantity, mean_quantity, in_baseline
  FROM listed
UNION ALL
SELECT d.anomaly_id, d.dimension, 0, d.label_key, NULL,
       d.to_date_cost - coalesce(sum(l.day_amount), 0),
       d.mean_cost - coalesce(sum(l.mean_amount), 0),
       (d.to_date_cost - coalesce(sum(l.day_amount), 0)) - (d.mean_cost - coalesce(sum(l.mean_amount), 0)),
       NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
  FROM dimensions d LEFT JOIN listed l ON l.anomaly_id = d.anomaly_id AND l.dimension = d.dimension
 GROUP BY d.anomaly_id, d.dimension, d.label_key, d.to_date_cost, d.mean_cost
