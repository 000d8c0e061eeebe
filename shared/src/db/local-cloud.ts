/**
 * The local cloud's store (PROVISIONING=local): projects, creation operations, billing links, budgets and quotas
 * as Google would keep them. Only shared/src/adapters/provisioning/local.ts writes here.
 */
import type { Queryable } from './pool.ts';

export interface LocalProjectRow {
  project_number: string;
  project_id: string;
  display_name: string;
  parent: string;
  labels: Record<string, string>;
  billing_account_name: string;
  owners: string[];
}

const PROJECT = 'project_number::text AS project_number, project_id, display_name, parent, labels, billing_account_name, owners';

/** Inserts the project unless its id exists; null when it does (Google's 409 ALREADY_EXISTS). */
export async function insertLocalProject(
  db: Queryable,
  p: { projectId: string; displayName: string; parent: string; labels: Record<string, string> },
): Promise<LocalProjectRow | null> {
  const { rows } = await db.query<LocalProjectRow>(
    `INSERT INTO local_cloud_project (project_id, display_name, parent, labels) VALUES ($1, $2, $3, $4)
     ON CONFLICT (project_id) DO NOTHING RETURNING ${PROJECT}`,
    [p.projectId, p.displayName, p.parent, JSON.stringify(p.labels)],
  );
  return rows[0] ?? null;
}

export async function findLocalProject(db: Queryable, projectIdOrNumber: string): Promise<LocalProjectRow | null> {
  const { rows } = await db.query<LocalProjectRow>(
    `SELECT ${PROJECT} FROM local_cloud_project WHERE project_id = $1 OR project_number::text = $1`,
    [projectIdOrNumber],
  );
  return rows[0] ?? null;
}

export async function insertLocalOperation(db: Queryable, name: string, projectId: string, delayMs: number): Promise<void> {
  await db.query(`INSERT INTO local_cloud_operation (name, project_id, ready_at) VALUES ($1, $2, now() + $3 * interval '1 millisecond')`, [
    name,
    projectId,
    delayMs,
  ]);
}

/** The operation's project and whether it is done; null for an unknown operation. */
export async function findLocalOperation(db: Queryable, name: string): Promise<{ project_id: string; done: boolean } | null> {
  const { rows } = await db.query<{ project_id: string; done: boolean }>(
    `SELECT project_id, ready_at <= now() AS done FROM local_cloud_operation WHERE name = $1`,
    [name],
  );
  return rows[0] ?? null;
}

export async function setLocalBilling(db: Queryable, projectId: string, billingAccountName: string): Promise<boolean> {
  const { rowCount } = await db.query(`UPDATE local_cloud_project SET billing_account_name = $2 WHERE project_id = $1`, [projectId, billingAccountName]);
  return (rowCount ?? 0) > 0;
}

export async function mergeLocalLabels(db: Queryable, projectId: string, labels: Record<string, string>): Promise<void> {
  await db.query(`UPDATE local_cloud_project SET labels = labels || $2::jsonb WHERE project_id = $1`, [projectId, JSON.stringify(labels)]);
}

/** The budget of that display name on the account, created when there is none; returns its name. */
export async function ensureLocalBudget(
  db: Queryable,
  b: { name: string; billingAccount: string; displayName: string; projectName: string; currency: string; amount: string },
): Promise<string> {
  await db.query(
    `INSERT INTO local_cloud_budget (name, billing_account, display_name, project_name, currency, amount)
     VALUES ($1, $2, $3, $4, $5, $6::numeric) ON CONFLICT (billing_account, display_name) DO NOTHING`,
    [b.name, b.billingAccount, b.displayName, b.projectName, b.currency, b.amount],
  );
  const { rows } = await db.query<{ name: string }>(`SELECT name FROM local_cloud_budget WHERE billing_account = $1 AND display_name = $2`, [
    b.billingAccount,
    b.displayName,
  ]);
  return rows[0].name;
}

/** Records a quota once (the first value stays, like an existing override or preference); returns its state. */
export async function ensureLocalQuota(
  db: Queryable,
  q: { projectId: string; quota: string; value: number; state: 'granted' | 'requested' },
): Promise<'granted' | 'requested'> {
  await db.query(
    `INSERT INTO local_cloud_quota (project_id, quota, value, state) VALUES ($1, $2, $3, $4) ON CONFLICT (project_id, quota) DO NOTHING`,
    [q.projectId, q.quota, q.value, q.state],
  );
  const { rows } = await db.query<{ state: 'granted' | 'requested' }>(`SELECT state FROM local_cloud_quota WHERE project_id = $1 AND quota = $2`, [
    q.projectId,
    q.quota,
  ]);
  return rows[0].state;
}

export async function addLocalOwner(db: Queryable, projectId: string, member: string): Promise<void> {
  await db.query(
    `UPDATE local_cloud_project SET owners = array_append(owners, $2) WHERE project_id = $1 AND NOT ($2 = ANY(owners))`,
    [projectId, member],
  );
}

/** Counts for tests and the demo: how many of each thing the local cloud holds for a project id. */
export async function countLocalCloud(db: Queryable, projectId: string): Promise<{ projects: number; budgets: number; billing_links: number; quotas: number; owners: string[] }> {
  const { rows } = await db.query<{ projects: number; budgets: number; billing_links: number; quotas: number; owners: string[] }>(
    `SELECT (SELECT count(*)::int FROM local_cloud_project WHERE project_id = $1) AS projects,
            (SELECT count(*)::int FROM local_cloud_budget b JOIN local_cloud_project p ON b.project_name = 'projects/' || p.project_number
              WHERE p.project_id = $1) AS budgets,
            (SELECT count(*)::int FROM local_cloud_project WHERE project_id = $1 AND billing_account_name <> '') AS billing_links,
            (SELECT count(*)::int FROM local_cloud_quota WHERE project_id = $1) AS quotas,
            COALESCE((SELECT owners FROM local_cloud_project WHERE project_id = $1), '{}') AS owners`,
    [projectId],
  );
  return rows[0];
}
