-- Up Migration
-- A customer's recommendations change outside a sync too (taking one on writes its new state at once), so the
-- snapshot version does not say when the recommendation list's totals and savings are stale. This counter goes up
-- with every statement that writes the customer's recommendations, whoever writes them, in the writer's transaction:
-- a total kept with the version it was counted at is exact while the version stands.
CREATE TABLE inventory_recommendation_version (
  customer_id text PRIMARY KEY REFERENCES customer(customer_id) ON DELETE CASCADE,
  version bigint NOT NULL
);

CREATE FUNCTION inventory_recommendation_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- joined to customer: a customer's deletion cascades to its recommendations and must not bring its counter back
  INSERT INTO inventory_recommendation_version AS v (customer_id, version)
  SELECT DISTINCT c.customer_id, 1 FROM changed c JOIN customer USING (customer_id)
  ON CONFLICT (customer_id) DO UPDATE SET version = v.version + 1;
  RETURN NULL;
END $$;

-- One trigger per event: a trigger with transition tables has a single event.
CREATE TRIGGER inventory_recommendation_inserted AFTER INSERT ON inventory_recommendation
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION inventory_recommendation_bump();
CREATE TRIGGER inventory_recommendation_updated AFTER UPDATE ON inventory_recommendation
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION inventory_recommendation_bump();
CREATE TRIGGER inventory_recommendation_deleted AFTER DELETE ON inventory_recommendation
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION inventory_recommendation_bump();

-- Down Migration
DROP TRIGGER inventory_recommendation_deleted ON inventory_recommendation;
DROP TRIGGER inventory_recommendation_updated ON inventory_recommendation;
DROP TRIGGER inventory_recommendation_inserted ON inventory_recommendation;
DROP FUNCTION inventory_recommendation_bump();
DROP TABLE inventory_recommendation_version;
