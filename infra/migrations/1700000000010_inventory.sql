-- Up Migration
-- Asset inventory and recommendations (spec 000 §2 /inventory, §3; 001 §2.10, §3 Inventory graph). A sync reads a
-- customer's whole estate through the inventory port and replaces its snapshot in one transaction: readers see the
-- previous snapshot until the new one is committed, never half of one. Every row carries customer_id.

CREATE TABLE inventory_sync_run (
  id bigserial PRIMARY KEY,
  customer_id text NOT NULL REFERENCES customer(customer_id) ON DELETE CASCADE,
  source text NOT NULL CHECK (source IN ('local', 'real')),
  status text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'succeeded', 'failed')),
  started_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  asset_count integer,
  recommendation_count integer,
  added integer,
  removed integer,
  changed integer,
  error text
);
CREATE INDEX inventory_sync_run_customer_idx ON inventory_sync_run (customer_id, id DESC);

-- The current snapshot: one row per asset the last successful sync saw.
CREATE TABLE inventory_asset (
  customer_id text NOT NULL REFERENCES customer(customer_id) ON DELETE CASCADE,
  asset_name text NOT NULL,
  asset_type text NOT NULL,
  project_id text NOT NULL,
  location text,
  -- the location's region (a zone without its suffix); null for global and unlocated assets
  region text,
  violation_rule text,
  display_name text NOT NULL,
  parent_name text,
  ancestors text[] NOT NULL DEFAULT '{}',
  update_time timestamptz,
  data jsonb NOT NULL DEFAULT '{}',
  -- md5 of everything above that came from upstream: an unchanged asset is neither rewritten nor recorded as changed
  content_hash text NOT NULL,
  -- sync runs, without foreign keys: a 100,000-asset snapshot would pay two key checks per row
  first_seen_run bigint NOT NULL,
  last_changed_run bigint NOT NULL,
  PRIMARY KEY (customer_id, asset_name)
);
-- Sorted, filtered pages of 100,000 assets: each sortable column leads an index after the tenant.
CREATE INDEX inventory_asset_type_idx ON inventory_asset (customer_id, asset_type, asset_name);
CREATE INDEX inventory_asset_project_idx ON inventory_asset (customer_id, project_id, asset_name);
CREATE INDEX inventory_asset_region_idx ON inventory_asset (customer_id, region, asset_name);

-- What each sync changed, per asset (the asset's history).
CREATE TABLE inventory_asset_change (
  id bigserial PRIMARY KEY,
  customer_id text NOT NULL REFERENCES customer(customer_id) ON DELETE CASCADE,
  sync_run_id bigint NOT NULL REFERENCES inventory_sync_run(id) ON DELETE CASCADE,
  asset_name text NOT NULL,
  asset_type text NOT NULL,
  change text NOT NULL CHECK (change IN ('added', 'removed', 'changed')),
  -- top-level keys of `data` (and the names of changed columns) that differ; empty for added and removed
  changed_fields text[] NOT NULL DEFAULT '{}',
  changed_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX inventory_asset_change_asset_idx ON inventory_asset_change (customer_id, asset_name, id DESC);
CREATE INDEX inventory_asset_change_run_idx ON inventory_asset_change (sync_run_id);

CREATE TABLE inventory_recommendation (
  customer_id text NOT NULL REFERENCES customer(customer_id) ON DELETE CASCADE,
  name text NOT NULL,
  etag text NOT NULL,
  state text NOT NULL,
  recommender text NOT NULL,
  recommender_subtype text NOT NULL,
  primary_impact_category text NOT NULL,
  -- per cost_duration; negative is a saving
  cost numeric(24,9),
  currency text,
  cost_duration text,
  description text NOT NULL,
  priority text NOT NULL,
  target_resources text[] NOT NULL DEFAULT '{}',
  location text NOT NULL,
  project_id text NOT NULL,
  last_refresh_time timestamptz,
  content jsonb NOT NULL DEFAULT '{}',
  content_hash text NOT NULL,
  sync_run_id bigint NOT NULL,
  PRIMARY KEY (customer_id, name)
);
CREATE INDEX inventory_recommendation_project_idx ON inventory_recommendation (customer_id, project_id, name);

-- A recommendation taken on by a support ticket. Kept when the recommendation leaves the snapshot (a succeeded
-- one disappears upstream). The *_sent_at columns make the upstream state change go out exactly once.
CREATE TABLE inventory_recommendation_claim (
  customer_id text NOT NULL REFERENCES customer(customer_id) ON DELETE CASCADE,
  recommendation_name text NOT NULL,
  ticket_id uuid NOT NULL REFERENCES ticket(id) ON DELETE CASCADE,
  -- known once the ticket has reached the system of record; it is the state metadata sent upstream
  ticket_key text,
  claimed_by text NOT NULL,
  claimed_at timestamptz NOT NULL DEFAULT now(),
  claim_sent_at timestamptz,
  succeeded_sent_at timestamptz,
  last_error text,
  PRIMARY KEY (customer_id, recommendation_name)
);
CREATE INDEX inventory_recommendation_claim_ticket_idx ON inventory_recommendation_claim (ticket_id);

-- What one Recommender list call answered, so a sync within the freshness window re-reads nothing: the free tier
-- allows 100 reads a day per organisation.
CREATE TABLE inventory_recommender_scan (
  customer_id text NOT NULL REFERENCES customer(customer_id) ON DELETE CASCADE,
  -- projects/{id}/locations/{location}/recommenders/{recommender}
  parent text NOT NULL,
  scanned_at timestamptz NOT NULL DEFAULT now(),
  recommendations jsonb NOT NULL,
  PRIMARY KEY (customer_id, parent)
);

-- The local inventory source's own record of the state changes sent to it (its stand-in for Recommender).
CREATE TABLE inventory_local_recommendation_state (
  customer_id text NOT NULL REFERENCES customer(customer_id) ON DELETE CASCADE,
  name text NOT NULL,
  state text NOT NULL CHECK (state IN ('CLAIMED', 'SUCCEEDED')),
  state_metadata jsonb NOT NULL DEFAULT '{}',
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (customer_id, name)
);

-- Down Migration
DROP TABLE inventory_local_recommendation_state;
DROP TABLE inventory_recommender_scan;
DROP TABLE inventory_recommendation_claim;
DROP TABLE inventory_recommendation;
DROP TABLE inventory_asset_change;
DROP TABLE inventory_asset;
DROP TABLE inventory_sync_run;
