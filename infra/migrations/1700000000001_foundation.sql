-- Up Migration
-- Foundation: tenancy (entity → customer), users and their access, error log, local mail store, token revocation.

CREATE TABLE entity (
  id text PRIMARY KEY,
  name text NOT NULL,
  email_domain_allowed text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE customer (
  customer_id text PRIMARY KEY CHECK (customer_id ~ '^[a-z-]{6,}$'),
  customer_name text NOT NULL,
  entity text REFERENCES entity(id) ON DELETE SET NULL,
  -- ordered: the first is the customer's default billing account (spec 001 §3)
  billing_account_ids text[] NOT NULL DEFAULT '{}',
  billing_currency text NOT NULL DEFAULT 'EUR' CHECK (billing_currency IN ('EUR', 'GBP', 'USD', 'DKK')),
  billing_dashboard_type text NOT NULL DEFAULT 'Standard' CHECK (billing_dashboard_type IN ('Standard', 'Set Discount', 'Tier Discount')),
  billing_dashboard_set_discount numeric(9,4),
  billing_dashboard_tier_discount jsonb NOT NULL DEFAULT '[]',
  support_request boolean NOT NULL DEFAULT false,
  billing_viewer boolean NOT NULL DEFAULT false,
  gcp_service_account boolean NOT NULL DEFAULT false,
  service_account_email text NOT NULL DEFAULT '',
  inventory boolean NOT NULL DEFAULT false,
  system_health_dashboard boolean NOT NULL DEFAULT false,
  grafana_external_link text NOT NULL DEFAULT '',
  documentation boolean NOT NULL DEFAULT false,
  drive_id text NOT NULL DEFAULT '',
  workspace_license boolean NOT NULL DEFAULT false,
  domain_name text NOT NULL DEFAULT '',
  anomaly_detection boolean NOT NULL DEFAULT false,
  minimum_anomaly_threshold numeric NOT NULL DEFAULT 20,
  minimum_value_toggled_anomaly numeric NOT NULL DEFAULT 10,
  business_units text[] NOT NULL DEFAULT '{}',
  products text[] NOT NULL DEFAULT '{}',
  env text[] NOT NULL DEFAULT '{}',
  owner_values text[] NOT NULL DEFAULT '{}',
  project_provisioning jsonb NOT NULL DEFAULT '[]',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX customer_entity_idx ON customer (entity);

CREATE TABLE app_user (
  id text PRIMARY KEY CHECK (id = lower(id)),
  role text CHECK (role IN ('admin', 'customer', 'customerViewer')),
  password_hash text,
  email_verified boolean NOT NULL DEFAULT false,
  picture text NOT NULL DEFAULT '',
  -- claims as last set by set_claims / update_claims; NULL until initialised (spec 000 §2 'being initialised')
  claims jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- The customer document's three e-mail lists: users (access), notify (support requests), alert (billing alerts, anomalies).
CREATE TABLE customer_member (
  customer_id text NOT NULL REFERENCES customer(customer_id) ON DELETE CASCADE,
  list text NOT NULL CHECK (list IN ('users', 'notify', 'alert')),
  user_id text NOT NULL,
  PRIMARY KEY (customer_id, list, user_id)
);
CREATE INDEX customer_member_user_idx ON customer_member (user_id);

CREATE TABLE viewer_filter (
  customer_id text NOT NULL REFERENCES customer(customer_id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES app_user(id) ON DELETE CASCADE,
  label_key text NOT NULL,
  label_value text NOT NULL,
  PRIMARY KEY (customer_id, user_id, label_key, label_value)
);

CREATE TABLE entity_admin (
  entity_id text NOT NULL REFERENCES entity(id) ON DELETE CASCADE,
  user_id text NOT NULL,
  PRIMARY KEY (entity_id, user_id)
);

CREATE TABLE revoked_token (
  jti text PRIMARY KEY,
  expires_at timestamptz NOT NULL
);

CREATE TABLE error_log (
  id bigserial PRIMARY KEY,
  date timestamptz NOT NULL DEFAULT now(),
  user_email text NOT NULL,
  resource text NOT NULL,
  type text NOT NULL,
  data jsonb NOT NULL DEFAULT '{}'
);

-- Messages received by the local SMTP adapter, so e-mail can be read without the internet.
CREATE TABLE mail_message (
  id bigserial PRIMARY KEY,
  received_at timestamptz NOT NULL DEFAULT now(),
  message_id text,
  mail_from text NOT NULL,
  rcpt_to text[] NOT NULL,
  subject text NOT NULL DEFAULT '',
  text_body text NOT NULL DEFAULT '',
  html_body text NOT NULL DEFAULT '',
  raw text NOT NULL
);

-- One row per notification key the notify queue has sent: a re-enqueued or retried notice is not sent twice.
CREATE TABLE mail_sent (
  key text PRIMARY KEY,
  sent_at timestamptz NOT NULL DEFAULT now(),
  recipients text[] NOT NULL
);

-- Down Migration
DROP TABLE mail_sent;
DROP TABLE mail_message;
DROP TABLE error_log;
DROP TABLE revoked_token;
DROP TABLE entity_admin;
DROP TABLE viewer_filter;
DROP TABLE customer_member;
DROP TABLE app_user;
DROP TABLE customer;
DROP TABLE entity;
