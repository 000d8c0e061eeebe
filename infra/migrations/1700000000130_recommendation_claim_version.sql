-- Up Migration
-- The recommendation list's page shows each row's ticket key, from its claim: a claim made, given its ticket key
-- later, or dropped with its ticket changes a page without writing the recommendation. So these statements bump the
-- same counter as migration 125's (a page kept with the version it was read at is exact while the version stands).
-- Only the ticket key is on a page: the claim's other updates (what was sent upstream, the last error) leave it.
CREATE TRIGGER inventory_recommendation_claim_inserted AFTER INSERT ON inventory_recommendation_claim
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION inventory_recommendation_bump();
CREATE TRIGGER inventory_recommendation_claim_deleted AFTER DELETE ON inventory_recommendation_claim
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION inventory_recommendation_bump();

-- An update, per row and only when what a page shows moved (a trigger with transition tables takes no column list
-- nor condition): the old and the new customer's counters, as a key may move a claim between customers.
CREATE FUNCTION inventory_recommendation_claim_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO inventory_recommendation_version AS v (customer_id, version)
  SELECT c.customer_id, 1 FROM customer c WHERE c.customer_id IN (OLD.customer_id, NEW.customer_id)
  ON CONFLICT (customer_id) DO UPDATE SET version = v.version + 1;
  RETURN NULL;
END $$;
CREATE TRIGGER inventory_recommendation_claim_updated AFTER UPDATE ON inventory_recommendation_claim
  FOR EACH ROW WHEN ((OLD.ticket_key, OLD.customer_id, OLD.recommendation_name) IS DISTINCT FROM (NEW.ticket_key, NEW.customer_id, NEW.recommendation_name))
  EXECUTE FUNCTION inventory_recommendation_claim_bump();

-- Down Migration
DROP TRIGGER inventory_recommendation_claim_updated ON inventory_recommendation_claim;
DROP FUNCTION inventory_recommendation_claim_bump();
DROP TRIGGER inventory_recommendation_claim_deleted ON inventory_recommendation_claim;
DROP TRIGGER inventory_recommendation_claim_inserted ON inventory_recommendation_claim;
