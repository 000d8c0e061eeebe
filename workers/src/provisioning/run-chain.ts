/**
 * The provisioning chain of one approved project request: create the project in the template's folder, wait for
 * it, link the customer's billing account, set the labels, make the budget, cap BigQuery, request CPUs, make the
 * default admin an owner, then Active.
 *
 * It resumes at the recorded step. A step's cloud call comes first and its record second, so a worker killed
 * in between runs that step again on the next attempt; every CloudProvisioning method is idempotent for exactly
 * that reason, and the request label makes a repeated create find its own project instead of making a second.
 */
import { withTransaction, type Pool, type Queryable } from '@cc/shared/db/pool.ts';
import { findCustomer } from '@cc/shared/db/customers.ts';
import {
  findProjectRequest,
  markActive,
  markFailed,
  noteRetry,
  recordStep,
  startCreating,
  type ProjectRequestRow,
} from '@cc/shared/db/provisioning.ts';
import { ProvisioningError, type CloudProject, type CloudProvisioning } from '@cc/shared/ports/cloud-provisioning.ts';
import { budgetInAccountCurrency } from '@cc/shared/provisioning/budget-currency.ts';
import {
  PROVISIONING_STEPS,
  adminMember,
  bigQueryDailyLimitMiB,
  nextStep,
  projectLabels,
  type ProjectState,
  type ProvisioningStep,
} from '@cc/shared/provisioning/rules.ts';

export interface ProvisioningDeps {
  pool: Pool;
  cloud: CloudProvisioning;
  /** Region of the Compute Engine CPU quota preference (the template gives a count, not a region). */
  cpuRegion: string;
  /** Pause between two looks at the project creation operation. */
  pollIntervalMs?: number;
  /** Looks per attempt; after them the attempt ends as transient and the job's retry looks again. */
  maxPolls?: number;
  /**
   * The job's last attempt: a transient failure then marks the request Failed too. Otherwise it is noted in the
   * step log and thrown, so the queue retries with backoff.
   */
  finalAttempt?: boolean;
  /**
   * Runs in the transaction that marks the request Active or Failed, with the row as it then is: what the end owes
   * (the e-mail) is written with it, so a crash right after that COMMIT cannot lose it.
   */
  onSettled?: (tx: Queryable, r: ProjectRequestRow) => Promise<void>;
  /** Test harness: runs after a step's cloud call and before its record (throwing here is a killed worker). */
  afterCloudCall?: (step: ProvisioningStep) => void | Promise<void>;
}

export interface ProvisioningOutcome {
  state: ProjectState;
  /** The step it stopped at: the failing one of a Failed request, null once Active. */
  step: ProvisioningStep | null;
  error: string | null;
}

interface StepDone {
  outcome: 'done' | 'skipped';
  detail: string;
  operation_name?: string;
  project_number?: string;
  /** Where to go on when not simply the next step. */
  next?: ProvisioningStep | null;
}

interface Context {
  r: ProjectRequestRow;
  billingAccount: string | null;
  currency: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const outcome = (r: ProjectRequestRow): ProvisioningOutcome => ({ state: r.state, step: r.failed_step ?? r.current_step, error: r.error });

function projectOf(r: ProjectRequestRow): CloudProject {
  if (!r.project_number) throw new ProvisioningError(`No project number recorded for ${r.project_name}`, false);
  return { name: `projects/${r.project_number}`, projectNumber: r.project_number, projectId: r.project_name, labels: {} };
}

async function runStep(deps: ProvisioningDeps, step: ProvisioningStep, { r, billingAccount, currency }: Context): Promise<StepDone> {
  const t = r.project_template;
  const template = { template_name: r.template_name, folder_name: r.folder_name, folder_number: r.folder_number, project_template: t };
  switch (step) {
    case 'create_project': {
      const res = await deps.cloud.createProject({
        projectId: r.project_name,
        displayName: r.project_name,
        parent: `folders/${r.folder_number}`,
        labels: projectLabels(template, r.owner_value, r.id),
      });
      if ('operation' in res) return { outcome: 'done', detail: res.operation, operation_name: res.operation };
      return { outcome: 'done', detail: `${res.project.name} already created for this request`, project_number: res.project.projectNumber, next: 'link_billing' };
    }
    case 'await_project': {
      if (!r.operation_name) throw new ProvisioningError('No creation operation recorded', false);
      for (let i = 0, polls = deps.maxPolls ?? 12; i < polls; i++) {
        const project = await deps.cloud.pollCreateProject(r.operation_name, r.id);
        if (project) return { outcome: 'done', detail: project.name, project_number: project.projectNumber };
        if (i < polls - 1) await sleep(deps.pollIntervalMs ?? 5000);
      }
      throw new ProvisioningError('projects.create: the operation is still running', true);
    }
    case 'link_billing': {
      if (!billingAccount) throw new ProvisioningError(`Customer ${r.customer_id} has no billing account`, false);
      await deps.cloud.linkBilling(r.project_name, `billingAccounts/${billingAccount}`);
      return { outcome: 'done', detail: `billingAccounts/${billingAccount}` };
    }
    case 'labels': {
      const labels = projectLabels(template, r.owner_value, r.id);
      await deps.cloud.setLabels(projectOf(r), labels);
      return { outcome: 'done', detail: Object.entries(labels).map(([k, v]) => `${k}=${v}`).join(', ') };
    }
    case 'budget': {
      if (!(t.budget > 0)) return { outcome: 'skipped', detail: 'no budget in the template' };
      if (!billingAccount) throw new ProvisioningError(`Customer ${r.customer_id} has no billing account`, false);
      const account = `billingAccounts/${billingAccount}`;
      const accountCurrency = await deps.cloud.billingAccountCurrency(account);
      const amount = await budgetInAccountCurrency(deps.pool, t.budget, currency, accountCurrency, new Date().toISOString().slice(0, 10));
      const name = await deps.cloud.ensureBudget({
        billingAccount: account,
        displayName: `${r.project_name} monthly budget`,
        projectName: `projects/${r.project_number}`,
        amount: amount.money,
      });
      return { outcome: 'done', detail: `${name}: ${amount.note}` };
    }
    case 'quota_bigquery': {
      if (!(t.quota.bigquery_analysis > 0)) return { outcome: 'skipped', detail: 'no BigQuery quota in the template' };
      await deps.cloud.capBigQueryQueryUsage(projectOf(r), bigQueryDailyLimitMiB(t.quota.bigquery_analysis));
      return { outcome: 'done', detail: `query usage capped at ${t.quota.bigquery_analysis} TiB a day` };
    }
    case 'quota_compute': {
      if (!(t.quota.compute_engine_cpus > 0)) return { outcome: 'skipped', detail: 'no Compute Engine quota in the template' };
      const contact = t.default_admin.replace(/^[a-zA-Z]+:/, '');
      const state = await deps.cloud.requestComputeCpus(projectOf(r), t.quota.compute_engine_cpus, deps.cpuRegion, contact.includes('@') ? contact : r.requester);
      return { outcome: 'done', detail: `${t.quota.compute_engine_cpus} CPUs in ${deps.cpuRegion}: ${state}` };
    }
    case 'default_admin': {
      const member = adminMember(t.default_admin);
      await deps.cloud.grantOwner(projectOf(r), member);
      return { outcome: 'done', detail: `${member} is roles/owner` };
    }
  }
}

/** Runs the request's remaining steps; returns where it ended. Throws only a transient failure to be retried. */
export async function runProvisioning(deps: ProvisioningDeps, requestId: string): Promise<ProvisioningOutcome> {
  const { pool } = deps;
  const found = await findProjectRequest(pool, requestId);
  if (!found) throw new Error(`Project request ${requestId} not found`);
  if (found.state !== 'Approved' && found.state !== 'Creating') return outcome(found);
  const customer = await findCustomer(pool, found.customer_id);
  let r = await startCreating(pool, requestId, PROVISIONING_STEPS[0]);
  if (!r) return outcome((await findProjectRequest(pool, requestId))!);
  const ctx: Context = { r, billingAccount: customer?.billing_account_id.split(',')[0] || null, currency: customer?.billing_currency ?? 'EUR' };

  for (let step = r.current_step; step; ) {
    let done: StepDone;
    try {
      done = await runStep(deps, step, ctx);
    } catch (err) {
      const e = err instanceof ProvisioningError ? err : new ProvisioningError(err instanceof Error ? err.message : String(err), true);
      if (e.transient && !deps.finalAttempt) {
        await noteRetry(pool, requestId, step, e.message);
        throw e;
      }
      await settle(deps, requestId, (tx) => markFailed(tx, requestId, step!, e.message));
      return { state: 'Failed', step, error: e.message };
    }
    await deps.afterCloudCall?.(step);
    const next = done.next === undefined ? nextStep(step) : done.next;
    // false: another worker recorded this step first; it carries on from there.
    if (!(await recordStep(pool, requestId, step, next, done))) return outcome((await findProjectRequest(pool, requestId))!);
    r = (await findProjectRequest(pool, requestId))!;
    ctx.r = r;
    step = next;
  }
  await settle(deps, requestId, (tx) => markActive(tx, requestId));
  return outcome((await findProjectRequest(pool, requestId))!);
}

/** The move to Active or Failed and, when it happened here, `onSettled`, in one transaction. */
async function settle(deps: ProvisioningDeps, requestId: string, move: (tx: Queryable) => Promise<boolean>): Promise<void> {
  await withTransaction(deps.pool, async (tx) => {
    if ((await move(tx)) && deps.onSettled) await deps.onSettled(tx, (await findProjectRequest(tx, requestId))!);
  });
}
