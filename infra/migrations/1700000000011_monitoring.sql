-- Up Migration
-- System Health (spec 000 §2, §7 Monitoring): one row per customer whose monitoring dashboard was initialised, written
-- by the monitoring queue, read by the password route and the screen. Decisions: docs/decisions-monitoring.md.

CREATE TABLE monitoring_account (
  customer_id text PRIMARY KEY REFERENCES customer(customer_id) ON DELETE CASCADE,
  -- which adapter provisioned it (MONITORING=local|grafana); a switch is repaired by the next Rebuild
  backend text NOT NULL CHECK (backend IN ('local', 'grafana')),
  -- initialising/rebuilding while a job runs; failed keeps last_error for the screen's alert
  status text NOT NULL CHECK (status IN ('initialising', 'rebuilding', 'ready', 'failed')),
  -- spec: the user ID equals the customer name (as it was when provisioned)
  login text NOT NULL,
  -- AES-256-GCM sealed by shared/src/secret-box.ts with the configured key, the customer id as associated data;
  -- never the password itself. Stored before the external system is touched, so a retry reuses it.
  password_sealed text NOT NULL CHECK (password_sealed ~ '^v[0-9]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+$'),
  -- the built-in dashboard link (the customer's grafana_link), before kiosk parameters
  dashboard_url text NOT NULL DEFAULT '',
  -- ids in the external system (Grafana orgId, userId, folderUid, datasourceUid)
  remote jsonb NOT NULL DEFAULT '{}',
  initialised_at timestamptz,
  rebuilt_at timestamptz,
  last_error text,
  last_error_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Down Migration
DROP TABLE monitoring_account;
