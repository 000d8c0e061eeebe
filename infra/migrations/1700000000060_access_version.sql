-- Up Migration

-- The version of "who may do what": every committed change to users, their claims, customer grants,
-- viewer filters, entity admins or customers bumps it, whoever wrote it (api, worker, CLI, psql). The api keeps users
-- and tenant admissions in process and serves them only while this version, mirrored into Redis after each change,
-- is the one they were read at (api/src/plugins/app/access-cache.ts, decisions.md "Hot path").
CREATE TABLE access_version (
  id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  version bigint NOT NULL DEFAULT 1
);
INSERT INTO access_version (id, version) VALUES (1, 1);

-- Deferred to commit time, so the single row is locked only for the moment of COMMIT (no contention or deadlock
-- while the writing transaction runs), and once per transaction however many rows it changed. The notification is
-- delivered at commit too, so a writer that dies right after COMMIT still tells every api process.
CREATE FUNCTION access_version_bump() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v bigint;
BEGIN
  IF current_setting('cc.access_bumped', true) = txid_current()::text THEN
    RETURN NULL;
  END IF;
  PERFORM set_config('cc.access_bumped', txid_current()::text, true);
  UPDATE access_version SET version = version + 1 WHERE id = 1 RETURNING version INTO v;
  PERFORM pg_notify('cc_access_version', v::text);
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER access_version_app_user AFTER INSERT OR UPDATE OR DELETE ON app_user
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION access_version_bump();
CREATE CONSTRAINT TRIGGER access_version_customer_member AFTER INSERT OR UPDATE OR DELETE ON customer_member
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION access_version_bump();
CREATE CONSTRAINT TRIGGER access_version_viewer_filter AFTER INSERT OR UPDATE OR DELETE ON viewer_filter
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION access_version_bump();
CREATE CONSTRAINT TRIGGER access_version_entity_admin AFTER INSERT OR UPDATE OR DELETE ON entity_admin
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION access_version_bump();
CREATE CONSTRAINT TRIGGER access_version_customer AFTER INSERT OR UPDATE OR DELETE ON customer
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION access_version_bump();

-- A billing account's committed data version (migration 040) announced at commit, so the api keeps the versions in
-- process instead of reading the row on every cached chart.
CREATE FUNCTION billing_data_version_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('cc_billing_data_version', NEW.version::text || ' ' || NEW.billing_account_id);
  RETURN NULL;
END $$;
CREATE TRIGGER billing_data_version_notify AFTER INSERT OR UPDATE ON billing_data_version
  FOR EACH ROW EXECUTE FUNCTION billing_data_version_notify();

-- Down Migration
DROP TRIGGER billing_data_version_notify ON billing_data_version;
DROP FUNCTION billing_data_version_notify();
DROP TRIGGER access_version_customer ON customer;
DROP TRIGGER access_version_entity_admin ON entity_admin;
DROP TRIGGER access_version_viewer_filter ON viewer_filter;
DROP TRIGGER access_version_customer_member ON customer_member;
DROP TRIGGER access_version_app_user ON app_user;
DROP FUNCTION access_version_bump();
DROP TABLE access_version;
