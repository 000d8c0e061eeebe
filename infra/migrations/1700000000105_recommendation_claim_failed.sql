-- Up Migration
-- A claim whose ticket is cancelled, or closed without having been resolved, marks its recommendation FAILED
-- upstream (markFailed) instead of leaving it CLAIMED for ever; failed_sent_at makes that change go out once,
-- like claim_sent_at and succeeded_sent_at. The local source records FAILED too. Decisions:
-- docs/decisions-inventory.md, "Claims".
ALTER TABLE inventory_recommendation_claim ADD COLUMN failed_sent_at timestamptz;
ALTER TABLE inventory_local_recommendation_state DROP CONSTRAINT inventory_local_recommendation_state_state_check;
ALTER TABLE inventory_local_recommendation_state ADD CONSTRAINT inventory_local_recommendation_state_state_check
  CHECK (state IN ('CLAIMED', 'SUCCEEDED', 'FAILED'));

-- Down Migration
DELETE FROM inventory_local_recommendation_state WHERE state = 'FAILED';
ALTER TABLE inventory_local_recommendation_state DROP CONSTRAINT inventory_local_recommendation_state_state_check;
ALTER TABLE inventory_local_recommendation_state ADD CONSTRAINT inventory_local_recommendation_state_state_check
  CHECK (state IN ('CLAIMED', 'SUCCEEDED'));
ALTER TABLE inventory_recommendation_claim DROP COLUMN failed_sent_at;
