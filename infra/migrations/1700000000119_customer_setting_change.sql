-- Up Migration
-- When a customer's currency and a viewer's project-label filters changed. Nothing recorded it, and an anomaly's
-- explanation lists such changes around its day (a currency change re-judges the series in the new currency; a
-- filter change alters what a viewer is shown). Written by triggers, so every writer (api, worker, CLI, psql) is
-- recorded; decisions in docs/decisions-insights.md, "Anomalies that explain themselves".
CREATE TABLE customer_setting_change (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  customer_id text NOT NULL REFERENCES customer(customer_id) ON UPDATE CASCADE ON DELETE CASCADE,
  at timestamptz NOT NULL DEFAULT now(),
  kind text NOT NULL CHECK (kind IN ('currency', 'viewer_filter_added', 'viewer_filter_removed')),
  -- the viewer whose filter changed; NULL for the currency
  user_id text,
  -- currency: the old and the new code; a filter: label_key=label_value in to_value (added) or from_value (removed)
  from_value text,
  to_value text,
  -- cc.actor of the writing transaction (license_actor(), migration 020), else 'system'
  changed_by text NOT NULL,
  -- the writing transaction: a save that drops a viewer's filters and adds them again nets out to what changed
  xact bigint NOT NULL DEFAULT txid_current()
);
CREATE INDEX customer_setting_change_customer_idx ON customer_setting_change (customer_id, at);

CREATE FUNCTION customer_currency_record_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO customer_setting_change (customer_id, kind, from_value, to_value, changed_by)
  VALUES (NEW.customer_id, 'currency', OLD.billing_currency, NEW.billing_currency, license_actor());
  RETURN NULL;
END $$;
CREATE TRIGGER customer_currency_record_change AFTER UPDATE OF billing_currency ON customer
  FOR EACH ROW WHEN (OLD.billing_currency IS DISTINCT FROM NEW.billing_currency)
  EXECUTE FUNCTION customer_currency_record_change();

CREATE FUNCTION viewer_filter_record_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE')
     -- a filter that goes with its customer or its user (a cascade) is no change of what a viewer sees
     AND EXISTS (SELECT 1 FROM customer c WHERE c.customer_id = OLD.customer_id)
     AND EXISTS (SELECT 1 FROM app_user u WHERE u.id = OLD.user_id) THEN
    INSERT INTO customer_setting_change (customer_id, kind, user_id, from_value, changed_by)
    VALUES (OLD.customer_id, 'viewer_filter_removed', OLD.user_id, OLD.label_key || '=' || OLD.label_value, license_actor());
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO customer_setting_change (customer_id, kind, user_id, to_value, changed_by)
    VALUES (NEW.customer_id, 'viewer_filter_added', NEW.user_id, NEW.label_key || '=' || NEW.label_value, license_actor());
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER viewer_filter_record_change AFTER INSERT OR UPDATE OR DELETE ON viewer_filter
  FOR EACH ROW EXECUTE FUNCTION viewer_filter_record_change();

-- Down Migration
DROP TRIGGER viewer_filter_record_change ON viewer_filter;
DROP FUNCTION viewer_filter_record_change();
DROP TRIGGER customer_currency_record_change ON customer;
DROP FUNCTION customer_currency_record_change();
DROP TABLE customer_setting_change;
