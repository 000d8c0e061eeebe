-- Up Migration
-- Google Workspace licenses: the SKUs a customer watches, orders of seats with approval, an auto-order
-- that fires once per threshold crossing, the history of every change; and the local Workspace tenant the offline
-- adapter keeps. Decisions: docs/decisions-licenses.md.

CREATE TABLE license (
  customer_id text NOT NULL REFERENCES customer(customer_id) ON UPDATE CASCADE ON DELETE CASCADE,
  -- Keyed by SKU, never by Google's subscriptionId (it changes when a subscription is updated).
  sku_id text NOT NULL CHECK (sku_id ~ '^[0-9]+$'),
  sku_name text NOT NULL,
  volume_total integer NOT NULL DEFAULT 0 CHECK (volume_total >= 0),
  volume_available integer NOT NULL DEFAULT 0,
  threshold integer NOT NULL DEFAULT 0 CHECK (threshold >= 0),
  new_order integer NOT NULL DEFAULT 1 CHECK (new_order >= 1),
  auto_order boolean NOT NULL DEFAULT false,
  -- How many times the license has recovered above its threshold. An auto order belongs to the episode it was
  -- placed in, and one episode has at most one auto order (license_order_auto_episode_uq): one order per crossing.
  auto_episode integer NOT NULL DEFAULT 0,
  synced_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (customer_id, sku_id)
);

CREATE TABLE license_order (
  order_id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  customer_id text NOT NULL,
  sku_id text NOT NULL,
  sku_name text NOT NULL,
  order_amount integer NOT NULL CHECK (order_amount >= 1),
  order_by text NOT NULL,
  comment text NOT NULL DEFAULT '',
  status text NOT NULL DEFAULT 'Pending' CHECK (status IN ('Pending', 'Approved', 'Fulfilled', 'Rejected', 'Failed')),
  order_time timestamptz NOT NULL DEFAULT now(),
  -- Set by the auto-order worker: the license's auto_episode the order answers. NULL for orders placed by a person.
  auto_episode integer,
  -- Approval: the seat count the subscription is raised to. Fixed once, so a retried approval sets the same absolute
  -- number at Google and the seats are added exactly once.
  seats_target integer,
  decided_by text,
  decided_at timestamptz,
  error text,
  FOREIGN KEY (customer_id, sku_id) REFERENCES license(customer_id, sku_id) ON UPDATE CASCADE ON DELETE CASCADE,
  CHECK ((status = 'Failed') = (error IS NOT NULL))
);
CREATE INDEX license_order_customer_idx ON license_order (customer_id, order_time DESC);
CREATE UNIQUE INDEX license_order_auto_episode_uq ON license_order (customer_id, sku_id, auto_episode) WHERE auto_episode IS NOT NULL;
-- Never a second automatic order while one waits for a decision, whatever episode it belongs to.
CREATE UNIQUE INDEX license_order_auto_pending_uq ON license_order (customer_id, sku_id) WHERE auto_episode IS NOT NULL AND status = 'Pending';

-- Every change of a license or of its orders, written by the triggers below so no code path can forget one.
-- updates: [{field, from, to}] (orders: field 'order', plus order_id and order_amount).
CREATE TABLE license_history (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  customer_id text NOT NULL REFERENCES customer(customer_id) ON UPDATE CASCADE ON DELETE CASCADE,
  sku_id text NOT NULL,
  sku_name text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('license', 'order')),
  changed_by text NOT NULL,
  date timestamptz NOT NULL DEFAULT now(),
  updates jsonb NOT NULL
);
CREATE INDEX license_history_customer_idx ON license_history (customer_id, date DESC);

-- Who made the change: the transaction sets cc.actor (SET LOCAL); otherwise the system.
CREATE FUNCTION license_actor() RETURNS text LANGUAGE sql STABLE AS
  $$ SELECT COALESCE(NULLIF(current_setting('cc.actor', true), ''), 'system') $$;

CREATE FUNCTION license_before_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.volume_available > NEW.threshold AND OLD.volume_available <= OLD.threshold THEN
    NEW.auto_episode := OLD.auto_episode + 1;
  END IF;
  NEW.updated_at := now();
  RETURN NEW;
END $$;
CREATE TRIGGER license_before_update BEFORE UPDATE ON license FOR EACH ROW EXECUTE FUNCTION license_before_update();

CREATE FUNCTION license_record_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changes jsonb := '[]';
  f text;
  o jsonb;
  n jsonb := to_jsonb(NEW);
BEGIN
  IF TG_OP = 'INSERT' THEN
    changes := jsonb_build_array(jsonb_build_object('field', 'created', 'from', NULL, 'to', NEW.sku_name));
    o := '{}';
  ELSE
    o := to_jsonb(OLD);
  END IF;
  FOREACH f IN ARRAY ARRAY['volume_total', 'volume_available', 'threshold', 'auto_order', 'new_order'] LOOP
    IF o -> f IS DISTINCT FROM n -> f THEN
      changes := changes || jsonb_build_array(jsonb_build_object('field', f, 'from', o -> f, 'to', n -> f));
    END IF;
  END LOOP;
  IF jsonb_array_length(changes) > 0 THEN
    INSERT INTO license_history (customer_id, sku_id, sku_name, kind, changed_by, updates)
    VALUES (NEW.customer_id, NEW.sku_id, NEW.sku_name, 'license', license_actor(), changes);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER license_record_change AFTER INSERT OR UPDATE ON license FOR EACH ROW EXECUTE FUNCTION license_record_change();

CREATE FUNCTION license_order_record_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.status = NEW.status THEN RETURN NULL; END IF;
  INSERT INTO license_history (customer_id, sku_id, sku_name, kind, changed_by, updates)
  VALUES (NEW.customer_id, NEW.sku_id, NEW.sku_name, 'order',
          CASE WHEN TG_OP = 'INSERT' THEN NEW.order_by ELSE license_actor() END,
          jsonb_build_array(jsonb_build_object(
            'field', 'order', 'order_id', NEW.order_id, 'order_amount', NEW.order_amount,
            'from', CASE WHEN TG_OP = 'INSERT' THEN NULL ELSE OLD.status END, 'to', NEW.status)));
  RETURN NULL;
END $$;
CREATE TRIGGER license_order_record_change AFTER INSERT OR UPDATE ON license_order FOR EACH ROW EXECUTE FUNCTION license_order_record_change();

-- The local Workspace tenant (WORKSPACE=local): the subscriptions Google's Reseller API would hold for a domain.
-- Assigned seats are not stored: they follow from base_used and the days since start_day (see
-- shared/src/workspace/local.ts), so usage moves day by day and thresholds get crossed in the demo.
CREATE TABLE local_workspace_subscription (
  domain text NOT NULL,
  sku_id text NOT NULL,
  sku_name text NOT NULL,
  plan text NOT NULL CHECK (plan IN ('ANNUAL_MONTHLY_PAY', 'ANNUAL_YEARLY_PAY', 'FLEXIBLE', 'TRIAL')),
  seats integer NOT NULL CHECK (seats >= 0),
  base_used integer NOT NULL CHECK (base_used >= 0),
  start_day date NOT NULL,
  -- Changes on every seat change, as Google's does: nothing may key on it.
  subscription_id text NOT NULL,
  PRIMARY KEY (domain, sku_id)
);

-- Down Migration
DROP TABLE local_workspace_subscription;
DROP TRIGGER license_order_record_change ON license_order;
DROP FUNCTION license_order_record_change();
DROP TRIGGER license_record_change ON license;
DROP FUNCTION license_record_change();
DROP TRIGGER license_before_update ON license;
DROP FUNCTION license_before_update();
DROP FUNCTION license_actor();
DROP TABLE license_history;
DROP TABLE license_order;
DROP TABLE license;
