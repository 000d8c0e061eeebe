-- Up Migration
-- The license orders and history lists are paged on the server with their total in X-Total-Count (issue 34: list
-- totals are not recounted per request). The totals of a customer's whole lists (no date range) are kept here, moved
-- in the writer's transaction by every statement that inserts, deletes or truncates orders or history rows, whoever
-- runs it (the history is written by license and license_order triggers); a deleted customer's counters go with it.
-- A list asked for a date range still counts the rows of that range (the range is the caller's).
CREATE TABLE license_list_count (
  customer_id text PRIMARY KEY REFERENCES customer(customer_id) ON UPDATE CASCADE ON DELETE CASCADE,
  orders integer NOT NULL DEFAULT 0 CHECK (orders >= 0),
  -- license_history rows by kind: the history without orders is the 'license' rows only
  license_changes integer NOT NULL DEFAULT 0 CHECK (license_changes >= 0),
  order_changes integer NOT NULL DEFAULT 0 CHECK (order_changes >= 0)
);

INSERT INTO license_list_count (customer_id, orders, license_changes, order_changes)
SELECT c.customer_id,
       (SELECT count(*) FROM license_order o WHERE o.customer_id = c.customer_id),
       (SELECT count(*) FROM license_history h WHERE h.customer_id = c.customer_id AND h.kind = 'license'),
       (SELECT count(*) FROM license_history h WHERE h.customer_id = c.customer_id AND h.kind = 'order')
  FROM customer c
 WHERE EXISTS (SELECT 1 FROM license_order o WHERE o.customer_id = c.customer_id)
    OR EXISTS (SELECT 1 FROM license_history h WHERE h.customer_id = c.customer_id);

CREATE FUNCTION license_order_count_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO license_list_count AS k (customer_id, orders)
  SELECT a.customer_id, count(*) FROM added a GROUP BY a.customer_id
  ON CONFLICT (customer_id) DO UPDATE SET orders = k.orders + excluded.orders;
  RETURN NULL;
END $$;

CREATE FUNCTION license_order_count_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- a customer's deletion cascades to its orders and has already taken its counters: nothing to update then
  UPDATE license_list_count k SET orders = k.orders - r.n
    FROM (SELECT customer_id, count(*)::int AS n FROM removed GROUP BY customer_id) r
   WHERE k.customer_id = r.customer_id;
  RETURN NULL;
END $$;

CREATE FUNCTION license_order_count_clear() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE license_list_count SET orders = 0 WHERE orders <> 0;
  RETURN NULL;
END $$;

CREATE FUNCTION license_history_count_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO license_list_count AS k (customer_id, license_changes, order_changes)
  SELECT a.customer_id, count(*) FILTER (WHERE a.kind = 'license'), count(*) FILTER (WHERE a.kind = 'order')
    FROM added a GROUP BY a.customer_id
  ON CONFLICT (customer_id) DO UPDATE
    SET license_changes = k.license_changes + excluded.license_changes, order_changes = k.order_changes + excluded.order_changes;
  RETURN NULL;
END $$;

CREATE FUNCTION license_history_count_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE license_list_count k SET license_changes = k.license_changes - r.l, order_changes = k.order_changes - r.o
    FROM (SELECT customer_id, (count(*) FILTER (WHERE kind = 'license'))::int AS l, (count(*) FILTER (WHERE kind = 'order'))::int AS o
            FROM removed GROUP BY customer_id) r
   WHERE k.customer_id = r.customer_id;
  RETURN NULL;
END $$;

CREATE FUNCTION license_history_count_clear() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE license_list_count SET license_changes = 0, order_changes = 0 WHERE license_changes <> 0 OR order_changes <> 0;
  RETURN NULL;
END $$;

-- One trigger per event: a trigger with transition tables has a single event.
CREATE TRIGGER license_order_counted_in AFTER INSERT ON license_order
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION license_order_count_add();
CREATE TRIGGER license_order_counted_out AFTER DELETE ON license_order
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION license_order_count_remove();
CREATE TRIGGER license_order_count_truncated AFTER TRUNCATE ON license_order
  FOR EACH STATEMENT EXECUTE FUNCTION license_order_count_clear();
CREATE TRIGGER license_history_counted_in AFTER INSERT ON license_history
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION license_history_count_add();
CREATE TRIGGER license_history_counted_out AFTER DELETE ON license_history
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION license_history_count_remove();
CREATE TRIGGER license_history_count_truncated AFTER TRUNCATE ON license_history
  FOR EACH STATEMENT EXECUTE FUNCTION license_history_count_clear();

-- Down Migration
DROP TRIGGER license_history_count_truncated ON license_history;
DROP TRIGGER license_history_counted_out ON license_history;
DROP TRIGGER license_history_counted_in ON license_history;
DROP TRIGGER license_order_count_truncated ON license_order;
DROP TRIGGER license_order_counted_out ON license_order;
DROP TRIGGER license_order_counted_in ON license_order;
DROP FUNCTION license_history_count_clear();
DROP FUNCTION license_history_count_remove();
DROP FUNCTION license_history_count_add();
DROP FUNCTION license_order_count_clear();
DROP FUNCTION license_order_count_remove();
DROP FUNCTION license_order_count_add();
DROP TABLE license_list_count;
