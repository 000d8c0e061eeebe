/**
 * Project requests: created by a customer, approved or rejected by the provider, walked through the
 * provisioning steps by the worker. Every state change checks the state it leaves in its WHERE clause, so two
 * admins or two workers racing each other cannot both move the same request.
 */
import type { Queryable } from './pool.ts';
import { STEP_LABELS, type CheckedProjectRequest, type ProjectState, type ProjectTemplate, type ProvisioningChoices, type ProvisioningStep } from '../provisioning/rules.ts';

export interface ProjectRequestRow {
  id: string;
  customer_id: string;
  requester: string;
  bu: string;
  product: string;
  env: string;
  owner_value: string;
  template_name: string;
  folder_name: string;
  folder_number: string;
  project_type: string;
  project_template: ProjectTemplate['project_template'];
  project_name: string;
  state: ProjectState;
  current_step: ProvisioningStep | null;
  step_log: StepLogEntry[];
  failed_step: ProvisioningStep | null;
  error: string | null;
  operation_name: string | null;
  project_number: string | null;
  decided_by: string | null;
  decided_at: string | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}

export interface StepLogEntry {
  step: ProvisioningStep;
  outcome: 'done' | 'skipped' | 'retrying' | 'failed';
  detail: string;
  at: string;
}

const ts = (c: string) => `to_json(${c})#>>'{}' AS ${c}`;
const COLUMNS = `id::text AS id, customer_id, requester, bu, product, env, owner_value, template_name, folder_name, folder_number,
  project_type, project_template, project_name, state, current_step, step_log, failed_step, error, operation_name, project_number,
  decided_by, ${ts('decided_at')}, ${ts('created_at')}, ${ts('updated_at')}, ${ts('completed_at')}`;

/** Refused: the generated project id is held by a live request (this customer's, or, since ids are global, another's). */
export class ProjectNameTaken extends Error {
  readonly statusCode = 409;
  constructor(projectName: string, ownRequest: boolean) {
    super(ownRequest ? `A request for project '${projectName}' already exists` : `Project id '${projectName}' is already taken`);
    this.name = 'ProjectNameTaken';
  }
}

export async function createProjectRequest(
  db: Queryable,
  r: { customerId: string; requester: string; checked: CheckedProjectRequest },
): Promise<ProjectRequestRow> {
  const { checked: c } = r;
  const { rows } = await db.query<ProjectRequestRow>(
    `INSERT INTO project_request (customer_id, requester, bu, product, env, owner_value, template_name, folder_name, folder_number,
                                  project_type, project_template, project_name)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
     ON CONFLICT (project_name) WHERE state <> 'Rejected' DO NOTHING
     RETURNING ${COLUMNS}`,
    [r.customerId, r.requester, c.bu, c.product, c.env, c.owner_value, c.template.template_name, c.template.folder_name,
      c.template.folder_number, c.template.project_template.project_type, JSON.stringify(c.template.project_template), c.project_name],
  );
  if (rows[0]) return rows[0];
  const holder = await db.query<{ customer_id: string }>(`SELECT customer_id FROM project_request WHERE project_name = $1 AND state <> 'Rejected'`, [c.project_name]);
  throw new ProjectNameTaken(c.project_name, holder.rows[0]?.customer_id === r.customerId);
}

/** Whether a live request holds `projectName` (the form checks before submit). */
export async function projectNameTaken(db: Queryable, projectName: string): Promise<boolean> {
  const { rowCount } = await db.query(`SELECT 1 FROM project_request WHERE project_name = $1 AND state <> 'Rejected'`, [projectName]);
  return (rowCount ?? 0) > 0;
}

/** The customer whose live request holds `projectName`, or null when it is free. */
export async function projectNameHolder(db: Queryable, projectName: string): Promise<string | null> {
  const { rows } = await db.query<{ customer_id: string }>(`SELECT customer_id FROM project_request WHERE project_name = $1 AND state <> 'Rejected'`, [projectName]);
  return rows[0]?.customer_id ?? null;
}

/** The customer's lists the New Project form chooses from, and the budget's currency. */
export async function findProvisioningChoices(db: Queryable, customerId: string): Promise<(ProvisioningChoices & { billing_currency: string }) | null> {
  const { rows } = await db.query<ProvisioningChoices & { billing_currency: string }>(
    `SELECT business_units, products, env, owner_values, project_provisioning, billing_currency FROM customer WHERE customer_id = $1`,
    [customerId],
  );
  return rows[0] ?? null;
}

/**
 * The customer's requests ordered by project name (spec 000 §7: projects ordered by project_name), one page of
 * them when `page` is given: a row carries its template and step log (~0.8 KB), and 500 of them made a 394 KB answer.
 */
export async function listProjectRequests(db: Queryable, customerId: string, page?: { offset: number; limit: number }): Promise<ProjectRequestRow[]> {
  const { rows } = await db.query<ProjectRequestRow>(
    `SELECT ${COLUMNS} FROM project_request WHERE customer_id = $1 ORDER BY project_name, created_at, id OFFSET $2 LIMIT $3`,
    [customerId, page?.offset ?? 0, page?.limit ?? null],
  );
  return rows;
}

/**
 * One page of the customer's requests as the JSON text of the list's answer (ProjectRecord: what toRecord in
 * api/src/provisioning/present.ts makes of a row, with the step label and the budget note worked out here), and the
 * count of all of them (kept, not recounted: migration 122), in one statement. Made in PostgreSQL: the api sends the string on instead of parsing each
 * row's template and step log into objects and serialising them again, which was most of the list's cost
 * (docs/decisions-provisioning.md). The step log itself stays out of the answer, as before.
 */
export async function projectRequestPageJson(db: Queryable, customerId: string, page: { offset: number; limit: number }): Promise<{ total: number; items: string }> {
  const { rows } = await db.query<{ total: number; items: string }>(
    // the total kept by migration 122's triggers, read in the page's own snapshot
    `SELECT coalesce((SELECT n FROM project_request_count WHERE customer_id = $1), 0) AS total,
            '[' || coalesce(string_agg(row_to_json(j)::text, ',' ORDER BY p.project_name, p.created_at, p.id), '') || ']' AS items
       FROM (SELECT * FROM project_request WHERE customer_id = $1 ORDER BY project_name, created_at, id OFFSET $2 LIMIT $3) p,
            LATERAL (SELECT p.id::text AS id, p.customer_id, p.project_name, p.state, p.project_type, p.folder_name, p.folder_number,
                            p.template_name, p.project_template, p.bu, p.product, p.env, p.owner_value, p.requester, p.current_step,
                            $4::jsonb ->> CASE p.state WHEN 'Creating' THEN p.current_step WHEN 'Failed' THEN p.failed_step END AS step_label,
                            p.failed_step, p.error,
                            -- the budget step's last "done" entry, after its "{budget name}: " (budgetNote)
                            (SELECT CASE WHEN strpos(e ->> 'detail', ': ') > 0 THEN substr(e ->> 'detail', strpos(e ->> 'detail', ': ') + 2) ELSE e ->> 'detail' END
                               FROM jsonb_array_elements(p.step_log) WITH ORDINALITY AS x(e, i)
                              WHERE e ->> 'step' = 'budget' AND e ->> 'outcome' = 'done' ORDER BY i DESC LIMIT 1) AS budget_note,
                            p.project_number, p.decided_by, p.decided_at, p.created_at, p.completed_at) j`,
    [customerId, page.offset, page.limit, JSON.stringify(STEP_LABELS)],
  );
  // no row on the page: the aggregate still answers one row
  return rows[0]!;
}

/** How many requests the customer has, counted over its rows (the list reads the kept count instead: migration 122). */
export async function countProjectRequests(db: Queryable, customerId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM project_request WHERE customer_id = $1`, [customerId]);
  return rows[0]!.n;
}

export async function findProjectRequest(db: Queryable, id: string): Promise<ProjectRequestRow | null> {
  const { rows } = await db.query<ProjectRequestRow>(`SELECT ${COLUMNS} FROM project_request WHERE id::text = $1`, [id]);
  return rows[0] ?? null;
}

export interface Decision {
  changed: ProjectRequestRow[];
  /** The ids not moved: unknown, of another customer, or not in the state the decision needs. */
  refused: { id: string; state: ProjectState | null }[];
}

async function decide(db: Queryable, customerId: string, ids: string[], from: readonly ProjectState[], to: ProjectState, by: string): Promise<Decision> {
  const { rows } = await db.query<ProjectRequestRow>(
    `UPDATE project_request SET state = $4, decided_by = $5, decided_at = now(), updated_at = now(),
            -- Only a Failed request carries an error (a table check); the failure stays in step_log.
            error = NULL, failed_step = NULL
      WHERE customer_id = $1 AND id::text = ANY($2::text[]) AND state = ANY($3::text[])
     RETURNING ${COLUMNS}`,
    [customerId, ids, [...from], to, by],
  );
  const moved = new Set(rows.map((r) => r.id));
  const others = await db.query<{ id: string; state: ProjectState }>(
    `SELECT id::text AS id, state FROM project_request WHERE customer_id = $1 AND id::text = ANY($2::text[])`,
    [customerId, ids],
  );
  const known = new Map(others.rows.map((r) => [r.id, r.state]));
  const refused = [...new Set(ids)].filter((id) => !moved.has(id)).map((id) => ({ id, state: known.get(id) ?? null }));
  return { changed: rows.sort((a, b) => a.project_name.localeCompare(b.project_name)), refused };
}

/** Approves the customer's pending requests among `ids`; the others are returned as refused. */
export const approveProjectRequests = (db: Queryable, customerId: string, ids: string[], by: string) =>
  decide(db, customerId, ids, ['Pending approval'], 'Approved', by);

/**
 * Rejects the customer's pending or Failed requests among `ids` (a Failed one the admin gives up on frees its
 * project id; what the chain already made in the cloud stays there).
 */
export const rejectProjectRequests = (db: Queryable, customerId: string, ids: string[], by: string) =>
  decide(db, customerId, ids, ['Pending approval', 'Failed'], 'Rejected', by);

/**
 * A Failed request back to Approved for the worker, keeping its current step: the chain resumes where it
 * failed. The failure stays in the step log.
 */
export const retryProjectRequests = (db: Queryable, customerId: string, ids: string[], by: string) =>
  decide(db, customerId, ids, ['Failed'], 'Approved', by);

/** Approved → Creating at the first step (or the step a retry resumes at); a Creating request stays as it is. */
export async function startCreating(db: Queryable, id: string, firstStep: ProvisioningStep): Promise<ProjectRequestRow | null> {
  const { rows } = await db.query<ProjectRequestRow>(
    `UPDATE project_request SET state = 'Creating', current_step = COALESCE(current_step, $2), updated_at = now()
      WHERE id::text = $1 AND state IN ('Approved', 'Creating')
     RETURNING ${COLUMNS}`,
    [id, firstStep],
  );
  return rows[0] ?? null;
}

const logEntry = (step: ProvisioningStep, outcome: StepLogEntry['outcome'], detail: string) =>
  JSON.stringify([{ step, outcome, detail, at: new Date().toISOString() }]);

/**
 * Records `step` as done and moves on to `next` (null after the last step), with what the step learnt.
 * Only while the request is Creating at `step`: false when another worker got there first.
 */
export async function recordStep(
  db: Queryable,
  id: string,
  step: ProvisioningStep,
  next: ProvisioningStep | null,
  done: { outcome: 'done' | 'skipped'; detail: string; operation_name?: string; project_number?: string },
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE project_request
        SET current_step = $3, step_log = step_log || $4::jsonb, updated_at = now(),
            operation_name = COALESCE($5, operation_name), project_number = COALESCE($6, project_number)
      WHERE id::text = $1 AND state = 'Creating' AND current_step = $2`,
    [id, step, next, logEntry(step, done.outcome, done.detail), done.operation_name ?? null, done.project_number ?? null],
  );
  return (rowCount ?? 0) > 0;
}

/** A transient failure the job will retry: logged, the request stays Creating at the same step. */
export async function noteRetry(db: Queryable, id: string, step: ProvisioningStep, error: string): Promise<void> {
  await db.query(`UPDATE project_request SET step_log = step_log || $3::jsonb, updated_at = now() WHERE id::text = $1 AND state = 'Creating' AND current_step = $2`, [
    id,
    step,
    logEntry(step, 'retrying', error),
  ]);
}

export async function markFailed(db: Queryable, id: string, step: ProvisioningStep, error: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE project_request SET state = 'Failed', failed_step = $2, error = $3, step_log = step_log || $4::jsonb, updated_at = now()
      WHERE id::text = $1 AND state IN ('Approved', 'Creating')`,
    [id, step, error, logEntry(step, 'failed', error)],
  );
  return (rowCount ?? 0) > 0;
}

export async function markActive(db: Queryable, id: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE project_request SET state = 'Active', current_step = NULL, updated_at = now(), completed_at = now()
      WHERE id::text = $1 AND state = 'Creating' AND current_step IS NULL`,
    [id],
  );
  return (rowCount ?? 0) > 0;
}

/** The customer's provisioned projects (for the service-access list and the local billing generator). */
export async function listProvisionedProjects(db: Queryable, customerId: string): Promise<{ project_id: string; project_name: string; since: string }[]> {
  const { rows } = await db.query<{ project_id: string; project_name: string; since: string }>(
    `SELECT project_name AS project_id, project_name, to_json(completed_at)#>>'{}' AS since
       FROM project_request WHERE customer_id = $1 AND state = 'Active' ORDER BY project_name`,
    [customerId],
  );
  return rows;
}

/**
 * Requests a worker should be on but may have lost: Approved for longer than `approvedSeconds` (the approval was
 * saved but its job never reached Redis), or Creating with no change for `creatingSeconds` (its job vanished
 * from Redis). The provisioning re-queue (shared/src/provisioning/requeue.ts) adds their jobs again.
 */
export async function listStalledRequests(
  db: Queryable,
  o: { approvedSeconds: number; creatingSeconds: number },
): Promise<Pick<ProjectRequestRow, 'id' | 'state' | 'step_log'>[]> {
  const { rows } = await db.query<Pick<ProjectRequestRow, 'id' | 'state' | 'step_log'>>(
    `SELECT id::text AS id, state, step_log FROM project_request
      WHERE (state = 'Approved' AND updated_at < now() - $1 * interval '1 second')
         OR (state = 'Creating' AND updated_at < now() - $2 * interval '1 second')
      ORDER BY updated_at`,
    [o.approvedSeconds, o.creatingSeconds],
  );
  return rows;
}

/**
 * The customer's Active requests whose project the local cloud holds under `billingAccountId`, with its labels and
 * the first day the demo billing generator bills it: the US/Pacific day after it became Active.
 */
export async function listProvisionedForBilling(
  db: Queryable,
  customerId: string,
  billingAccountId: string,
): Promise<{ project_id: string; labels: Record<string, string>; from: string }[]> {
  const { rows } = await db.query<{ project_id: string; labels: Record<string, string>; from: string }>(
    `SELECT p.project_id, p.labels, to_char((r.completed_at AT TIME ZONE 'America/Los_Angeles')::date + 1, 'YYYY-MM-DD') AS "from"
       FROM project_request r JOIN local_cloud_project p ON p.project_id = r.project_name
      WHERE r.customer_id = $1 AND r.state = 'Active' AND p.billing_account_name = 'billingAccounts/' || $2
      ORDER BY p.project_id`,
    [customerId, billingAccountId],
  );
  return rows;
}
