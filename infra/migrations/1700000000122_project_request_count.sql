-- Up Migration
-- The project request list's total (X-Total-Count) was counted over the customer's requests on every page (issue 34:
-- list totals are not recounted per request). It changes only when a request is inserted or deleted (a state change
-- leaves it), so it is kept here, moved in the writer's transaction by every statement that inserts, deletes or
-- truncates requests, whoever runs it; a deleted customer's counter goes with it.
CREATE TABLE project_request_count (
  customer_id text PRIMARY KEY REFERENCES customer(customer_id) ON UPDATE CASCADE ON DELETE CASCADE,
  n integer NOT NULL CHECK (n >= 0)
);

INSERT INTO project_request_count (customer_id, n) SELECT customer_id, count(*) FROM project_request GROUP BY customer_id;

CREATE FUNCTION project_request_count_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO project_request_count AS k (customer_id, n)
  SELECT a.customer_id, count(*) FROM added a GROUP BY a.customer_id
  ON CONFLICT (customer_id) DO UPDATE SET n = k.n + excluded.n;
  RETURN NULL;
END $$;

CREATE FUNCTION project_request_count_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- a customer's deletion cascades to its requests and has already taken its counter: nothing to update then
  UPDATE project_request_count k SET n = k.n - r.n
    FROM (SELECT customer_id, count(*)::int AS n FROM removed GROUP BY customer_id) r
   WHERE k.customer_id = r.customer_id;
  RETURN NULL;
END $$;

CREATE FUNCTION project_request_count_clear() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM project_request_count;
  RETURN NULL;
END $$;

-- One trigger per event: a trigger with transition tables has a single event.
CREATE TRIGGER project_request_counted_in AFTER INSERT ON project_request
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION project_request_count_add();
CREATE TRIGGER project_request_counted_out AFTER DELETE ON project_request
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION project_request_count_remove();
CREATE TRIGGER project_request_count_truncated AFTER TRUNCATE ON project_request
  FOR EACH STATEMENT EXECUTE FUNCTION project_request_count_clear();

-- Down Migration
DROP TRIGGER project_request_count_truncated ON project_request;
DROP TRIGGER project_request_counted_out ON project_request;
DROP TRIGGER project_request_counted_in ON project_request;
DROP FUNCTION project_request_count_clear();
DROP FUNCTION project_request_count_remove();
DROP FUNCTION project_request_count_add();
DROP TABLE project_request_count;
