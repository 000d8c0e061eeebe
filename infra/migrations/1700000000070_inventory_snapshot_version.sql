-- The inventory graph route keeps its built graph per customer and snapshot version, and asks for
-- the version on every request: the number and latest id of the customer's succeeded sync runs. This partial index
-- answers that from the succeeded runs alone (an index-only scan), however many failed or running runs there are.
CREATE INDEX inventory_sync_run_succeeded_idx ON inventory_sync_run (customer_id, id) WHERE status = 'succeeded';
