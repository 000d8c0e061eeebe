-- Up Migration
-- The provider's operations inbox (GET /v1/operations/inbox): what needs a person across every customer. Each kind
-- is read from the table that already holds it; this adds when each admin last looked at the anomalies (so "found
-- since you last looked" is per admin), and partial indexes so the open states are found without reading the
-- settled history of 500 customers (decided requests, filled orders, answered tickets stay out of the indexes).

CREATE TABLE operations_seen (
  user_id text PRIMARY KEY REFERENCES app_user(id) ON DELETE CASCADE,
  anomalies_seen_at timestamptz NOT NULL
);

CREATE INDEX project_request_open_idx ON project_request (state, created_at) WHERE state IN ('Pending approval', 'Failed');
CREATE INDEX license_order_open_idx ON license_order (status, order_time) WHERE status IN ('Pending', 'Failed');
CREATE INDEX ticket_awaiting_response_idx ON ticket (created_at) WHERE first_response_at IS NULL AND status IN ('Open', 'In Progress');
CREATE INDEX alert_notice_month_idx ON alert_notice (month);
CREATE INDEX anomaly_run_computed_idx ON anomaly_run (computed_at);
-- the latest batch of each source of an account, without reading the account's other sources' history
CREATE INDEX ingest_batch_account_source_idx ON ingest_batch (billing_account_id, source, started_at DESC);

-- Down Migration
DROP INDEX ingest_batch_account_source_idx;
DROP INDEX anomaly_run_computed_idx;
DROP INDEX alert_notice_month_idx;
DROP INDEX ticket_awaiting_response_idx;
DROP INDEX license_order_open_idx;
DROP INDEX project_request_open_idx;
DROP TABLE operations_seen;
