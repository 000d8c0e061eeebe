-- Up Migration
-- The cost lines of a day folded per project x service x SKU x resource x label set, for the contributors of
-- anomalies (issue 32). The detection pass used to read the account's whole 29-day window of cost_line to explain a
-- few flagged series (cost_line has only the (account, day) index): +44 % on the pass at 100,000 series. An index on
-- cost_line by project and service made it fast but every ingest about 21 % slower. Instead the pass folds a day's
-- lines once, read by the (account, day) index, and reads the flagged series' days from here by their key; a night
-- folds the new day only. Built by the detection pass, never by the ingest. Decisions: docs/decisions-insights.md,
-- "Anomalies that explain themselves".
-- Both tables are UNLOGGED: they are worked out again from cost_line whenever missing, so they need not be written
-- twice (WAL) on every fold. A crash empties both together (a day marked folded never lacks its rows), and the next
-- pass folds the window again. Not on replicas, which nothing reads them from: the worker's pass uses the primary.
CREATE UNLOGGED TABLE anomaly_line_day (
  billing_account_id text NOT NULL,
  usage_date date NOT NULL,
  project_id text NOT NULL,
  service text NOT NULL,
  customer_id text NOT NULL,
  currency text NOT NULL,
  sku text NOT NULL,
  resource_id text NOT NULL,
  resource_labels jsonb NOT NULL,
  cost numeric NOT NULL,
  credits numeric NOT NULL,
  amortisation numeric NOT NULL,
  -- sum of usage_quantity (NULL when no line carries one) and whether every line that costs something carries one
  quantity numeric,
  quantified boolean NOT NULL
);
-- one descent per flagged series and day; a day's rows are deleted together when it is folded again
CREATE INDEX anomaly_line_day_key_idx ON anomaly_line_day (billing_account_id, usage_date, project_id, service);

-- Which (account, customer, day) is folded, and from which batches: the ids of the ingest batches whose extents
-- (cost_line_extent) cover the day when it was folded. Any batch that loads, replaces or corrects the day (or its
-- removal) changes the list, and the day is folded again before it is read.
CREATE UNLOGGED TABLE anomaly_line_day_state (
  billing_account_id text NOT NULL,
  customer_id text NOT NULL,
  usage_date date NOT NULL,
  batches text NOT NULL,
  folded_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (billing_account_id, customer_id, usage_date)
);

-- Down Migration
DROP TABLE anomaly_line_day_state;
DROP TABLE anomaly_line_day;
