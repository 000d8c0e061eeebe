-- Up Migration
-- Faults: work accepted is work done. PostgreSQL is the system of record for queued work too: every
-- command the api accepts and every follow-up a job owes is an outbox row, written before (or in the same
-- transaction as) the work it follows; a reconciler in the workers publishes the rows to BullMQ and re-publishes
-- jobs a lost Redis forgot. Decisions: docs/decisions.md, "Faults".

CREATE TABLE outbox (
  id bigserial PRIMARY KEY,
  queue text NOT NULL,
  job_name text NOT NULL,
  data jsonb NOT NULL,
  -- the BullMQ job id, fixed when the row is written: a re-publish never makes a second job while one waits
  job_id text NOT NULL CHECK (job_id !~ ':' AND job_id !~ '^\d+$'),
  -- job options beyond the registry's defaults (e.g. a delay)
  opts jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  -- set once BullMQ took the job; null = pending
  published_at timestamptz,
  publish_count integer NOT NULL DEFAULT 0,
  -- set by the worker when the job completed or failed for good; until then a job Redis lost is published again
  done_at timestamptz,
  last_error text
);
CREATE INDEX outbox_pending_idx ON outbox (id) WHERE published_at IS NULL;
CREATE INDEX outbox_open_idx ON outbox (queue, job_id) WHERE done_at IS NULL;

-- The data version of a billing account, bumped in the transaction that commits its new cost lines: cached chart
-- answers carry it in their key, so no cache can outlive a commit, whatever happens to the process after COMMIT.
CREATE TABLE billing_data_version (
  billing_account_id text PRIMARY KEY,
  version bigint NOT NULL DEFAULT 1,
  changed_at timestamptz NOT NULL DEFAULT now()
);

-- An ingest batch that succeeded owes the anomaly detection and the alert evaluation of its customer and account.
-- A trigger writes them in the ingest's own transaction (the loader's code stays as it is); the job ids coalesce per
-- customer and account, so many ingests waiting behind one another queue one follow-up each.
CREATE FUNCTION ingest_batch_after_success() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  cust text := regexp_replace(NEW.customer_id, '[^A-Za-z0-9._-]+', '_', 'g');
  acct text := regexp_replace(NEW.billing_account_id, '[^A-Za-z0-9._-]+', '_', 'g');
BEGIN
  INSERT INTO billing_data_version (billing_account_id) VALUES (NEW.billing_account_id)
    ON CONFLICT (billing_account_id) DO UPDATE SET version = billing_data_version.version + 1, changed_at = now();
  INSERT INTO outbox (queue, job_name, data, job_id) VALUES
    ('anomaly-detect', 'anomaly.detect', jsonb_build_object('customer_id', NEW.customer_id), 'anomaly-' || cust || '-after-ingest'),
    ('alert-evaluate', 'alert.evaluate', jsonb_build_object('customer_id', NEW.customer_id, 'billing_account_id', NEW.billing_account_id),
     'alert-' || cust || '-' || acct || '-after-ingest');
  RETURN NEW;
END $$;
CREATE TRIGGER ingest_batch_after_success AFTER UPDATE OF status ON ingest_batch
  FOR EACH ROW WHEN (NEW.status = 'succeeded' AND OLD.status IS DISTINCT FROM 'succeeded')
  EXECUTE FUNCTION ingest_batch_after_success();

-- E-mail effectively once: the intent is recorded before the first SMTP attempt; its id makes the Message-ID.
CREATE TABLE mail_intent (
  id bigserial PRIMARY KEY,
  key text NOT NULL UNIQUE,
  recipients text[] NOT NULL,
  subject text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- attempts started; > 0 without sent_at = an attempt whose outcome is uncertain (crash between DATA and the record)
  attempts integer NOT NULL DEFAULT 0,
  attempted_at timestamptz,
  -- after the SMTP server's 250
  sent_at timestamptz,
  accepted text[]
);

-- queued_at: its e-mail is in the outbox (durable); notified_at: the e-mail was delivered.
ALTER TABLE alert_notice ADD COLUMN queued_at timestamptz;

-- An alert notice counts as sent when its e-mail was delivered (mail_sent, written after the 250), not when queued.
CREATE FUNCTION alert_notice_delivered() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.key ~ '^alert-\d+-\d{4}-\d{2}$' THEN
    UPDATE alert_notice SET notified_at = NEW.sent_at, recipients = NEW.recipients
     WHERE notified_at IS NULL AND 'alert-' || alert_id || '-' || month = NEW.key;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER mail_sent_alert_notice AFTER INSERT ON mail_sent FOR EACH ROW EXECUTE FUNCTION alert_notice_delivered();

-- Down Migration
DROP TRIGGER mail_sent_alert_notice ON mail_sent;
DROP FUNCTION alert_notice_delivered();
ALTER TABLE alert_notice DROP COLUMN queued_at;
DROP TABLE mail_intent;
DROP TRIGGER ingest_batch_after_success ON ingest_batch;
DROP FUNCTION ingest_batch_after_success();
DROP TABLE billing_data_version;
DROP TABLE outbox;
