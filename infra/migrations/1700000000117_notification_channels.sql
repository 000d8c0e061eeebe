-- Up Migration
-- Where a customer's notices go besides e-mail: a signed webhook, a Slack incoming webhook or a Microsoft Teams
-- Workflows webhook. The URL (it is the credential of Slack's and Teams' webhooks) and the webhook's signing secret
-- are kept sealed (shared/src/secret-box.ts, bound to the channel id); the screen sees only the host.
CREATE TABLE notification_channel (
  id uuid PRIMARY KEY,
  customer_id text NOT NULL REFERENCES customer(customer_id) ON UPDATE CASCADE ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('webhook', 'slack', 'teams')),
  name text NOT NULL,
  url_sealed text NOT NULL,
  -- shown once, at creation; the webhook kind only
  secret_sealed text,
  url_host text NOT NULL,
  events text[] NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL
);
CREATE INDEX notification_channel_customer_idx ON notification_channel (customer_id);

-- One row per event and channel: its id is the delivery id (X-CommandCenter-Delivery), the receiver's idempotency key.
-- A row is written in the transaction that records the event, with its first job in the outbox.
CREATE TABLE channel_delivery (
  id uuid PRIMARY KEY,
  channel_id uuid NOT NULL REFERENCES notification_channel(id) ON DELETE CASCADE,
  customer_id text NOT NULL REFERENCES customer(customer_id) ON UPDATE CASCADE ON DELETE CASCADE,
  -- the event's own idempotency key (e.g. alert-<id>-<month>): the same event never makes two deliveries per channel
  event_key text NOT NULL,
  event jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- the attempt the next job runs (a job of an older attempt ends without sending)
  attempt int NOT NULL DEFAULT 1,
  attempted_at timestamptz,
  next_attempt_at timestamptz,
  delivered_at timestamptz,
  failed_at timestamptz,
  last_status int,
  last_error text CHECK (length(last_error) <= 1024),
  -- at most 1 KB of the receiver's last answer
  last_response text CHECK (length(last_response) <= 1024),
  UNIQUE (channel_id, event_key)
);
CREATE INDEX channel_delivery_failed_idx ON channel_delivery (channel_id) WHERE failed_at IS NOT NULL;

-- Down Migration
DROP TABLE channel_delivery;
DROP TABLE notification_channel;
