-- Up Migration
-- Project provisioning: a customer's request for a GCP project from one of its templates, approved by
-- the provider and created by the worker step by step; and the local cloud the offline adapter keeps.

CREATE TABLE project_request (
  -- Also the value of the project's commandcenter-request label: a uuid fits Google's label value rules.
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  customer_id text NOT NULL REFERENCES customer(customer_id) ON UPDATE CASCADE ON DELETE CASCADE,
  requester text NOT NULL,
  bu text NOT NULL,
  product text NOT NULL,
  env text NOT NULL,
  owner_value text NOT NULL,
  template_name text NOT NULL,
  folder_name text NOT NULL,
  folder_number text NOT NULL,
  project_type text NOT NULL,
  -- The template as it was when requested: editing the customer's templates later does not change a request.
  project_template jsonb NOT NULL,
  -- The generated project id (spec: project_name).
  project_name text NOT NULL,
  state text NOT NULL DEFAULT 'Pending approval'
    CHECK (state IN ('Pending approval', 'Approved', 'Creating', 'Active', 'Rejected', 'Failed')),
  -- The step the worker runs next (or was running when it failed or stopped); NULL before the first and after the last.
  current_step text CHECK (current_step IN ('create_project', 'await_project', 'link_billing', 'labels', 'budget',
                                            'quota_bigquery', 'quota_compute', 'default_admin')),
  -- [{step, outcome: done|skipped|retrying|failed, detail, at}], oldest first.
  step_log jsonb NOT NULL DEFAULT '[]',
  failed_step text,
  error text,
  operation_name text,
  project_number text,
  decided_by text,
  decided_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz,
  CHECK ((state = 'Failed') = (error IS NOT NULL))
);
-- Google project ids are global: two live requests never hold the same one, whichever customer asks.
CREATE UNIQUE INDEX project_request_live_name_uq ON project_request (project_name) WHERE state <> 'Rejected';
CREATE INDEX project_request_customer_idx ON project_request (customer_id, project_name);

-- The local cloud (PROVISIONING=local): what Google would keep, answered like its APIs.
CREATE TABLE local_cloud_project (
  project_number bigint GENERATED ALWAYS AS IDENTITY (START WITH 700000000001) PRIMARY KEY,
  project_id text NOT NULL UNIQUE,
  display_name text NOT NULL,
  parent text NOT NULL,
  labels jsonb NOT NULL DEFAULT '{}',
  billing_account_name text NOT NULL DEFAULT '',
  owners text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE local_cloud_operation (
  name text PRIMARY KEY,
  project_id text NOT NULL REFERENCES local_cloud_project(project_id) ON DELETE CASCADE,
  -- The operation reports done from this moment on (a short delay, as Google's do).
  ready_at timestamptz NOT NULL
);

CREATE TABLE local_cloud_budget (
  name text PRIMARY KEY,
  billing_account text NOT NULL,
  display_name text NOT NULL,
  project_name text NOT NULL,
  currency text NOT NULL,
  amount numeric(24,2) NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (billing_account, display_name)
);

CREATE TABLE local_cloud_quota (
  project_id text NOT NULL REFERENCES local_cloud_project(project_id) ON DELETE CASCADE,
  -- bigquery.googleapis.com/quota/query/usage (a consumer override) or CPUS-per-project-region/{region} (a preference).
  quota text NOT NULL,
  value bigint NOT NULL,
  state text NOT NULL CHECK (state IN ('granted', 'requested')),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (project_id, quota)
);

-- Down Migration
DROP TABLE local_cloud_quota;
DROP TABLE local_cloud_budget;
DROP TABLE local_cloud_operation;
DROP TABLE local_cloud_project;
DROP TABLE project_request;
