-- Up Migration
-- What drove an anomaly's rise: per flagged anomaly, the top SKUs, resources and values of one resource-label key of
-- its project x service lines, each against the same baseline the detection used (the series' own days of the 28-day
-- window, the customer's cost basis, each day converted at that day's rate), plus one 'rest' row per dimension, so
-- that listed contributions + rest = the anomaly's rise exactly. Written by the detection pass in its transaction
-- (a re-run rewrites them); decisions in docs/decisions-insights.md, "Anomalies that explain themselves".
CREATE TABLE anomaly_contributor (
  anomaly_id bigint NOT NULL REFERENCES anomaly(id) ON DELETE CASCADE,
  dimension text NOT NULL CHECK (dimension IN ('sku', 'resource', 'label')),
  -- 1..n by contribution, biggest first; 0 is the rest of the dimension (value NULL)
  rank smallint NOT NULL,
  -- the resource-label key of a 'label' row (one key per anomaly: the one whose top value explains most)
  label_key text,
  -- SKU name, resource id ('' = lines without one) or label value ('' = lines without the key); NULL on the rest
  value text,
  -- figures in the anomaly's currency on its cost basis: spend of the day, mean daily spend of the baseline, and
  -- day - mean (what it adds to the rise)
  day_amount numeric NOT NULL,
  mean_amount numeric NOT NULL,
  contribution numeric NOT NULL,
  -- what tells usage from price: gross cost, credits and amortisation (day and mean), the quantity (NULL when the
  -- billing lines carry none), and whether the value had spend in the baseline at all
  day_cost numeric,
  mean_cost numeric,
  day_credits numeric,
  mean_credits numeric,
  day_amortisation numeric,
  mean_amortisation numeric,
  day_quantity numeric,
  mean_quantity numeric,
  in_baseline boolean,
  PRIMARY KEY (anomaly_id, dimension, rank)
);

-- The usage an amount paid for (FOCUS ConsumedQuantity, GCP usage.amount): tells a usage rise from a price rise.
-- NULL where the source carries none; a plain nullable column, so adding it rewrites nothing.
ALTER TABLE cost_line ADD COLUMN usage_quantity numeric;

-- Down Migration
ALTER TABLE cost_line DROP COLUMN usage_quantity;
DROP TABLE anomaly_contributor;
