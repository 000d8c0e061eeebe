/**
 * The offline cloud (PROVISIONING=local, the default): projects, creation operations, billing links, budgets and
 * quotas kept in PostgreSQL, answering like Google's APIs — a create returns an operation that is done after a
 * short delay, a taken id is ALREADY_EXISTS, an existing budget or quota is found again — so the whole flow runs
 * without a Google account.
 */
import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../db/pool.ts';
import {
  addLocalOwner,
  ensureLocalBudget,
  ensureLocalQuota,
  findLocalOperation,
  findLocalProject,
  insertLocalOperation,
  insertLocalProject,
  mergeLocalLabels,
  setLocalBilling,
  type LocalProjectRow,
} from '../../db/local-cloud.ts';
import { REQUEST_LABEL } from '../../provisioning/rules.ts';
import { ProvisioningError, type CloudProject, type CloudProvisioning } from '../../ports/cloud-provisioning.ts';

export interface LocalProvisioningOptions {
  /** How long a creation operation runs before it reports done. */
  operationDelayMs?: number;
  /** CPUs the local cloud grants at once; a preference above it stays 'requested', as Google's would. */
  grantedCpus?: number;
  /** The currency of every local billing account (Google's are each in one currency, fixed at creation). */
  billingAccountCurrency?: string;
}

const toCloudProject = (p: LocalProjectRow): CloudProject => ({
  name: `projects/${p.project_number}`,
  projectNumber: p.project_number,
  projectId: p.project_id,
  labels: p.labels,
});

export function localProvisioning(db: Queryable, opts: LocalProvisioningOptions = {}): CloudProvisioning {
  const delay = opts.operationDelayMs ?? 2000;
  const grantedCpus = opts.grantedCpus ?? 24;

  async function project(idOrNumber: string): Promise<LocalProjectRow> {
    const p = await findLocalProject(db, idOrNumber);
    if (!p) throw new ProvisioningError(`local cloud: 403 PERMISSION_DENIED: project ${idOrNumber} is not visible`, false);
    return p;
  }

  return {
    name: 'local',

    async createProject(p) {
      const created = await insertLocalProject(db, p);
      if (created) {
        const operation = `operations/cp.${randomUUID()}`;
        await insertLocalOperation(db, operation, p.projectId, delay);
        return { operation };
      }
      const existing = await project(p.projectId);
      if (existing.labels[REQUEST_LABEL] !== p.labels[REQUEST_LABEL]) {
        throw new ProvisioningError(`Project id '${p.projectId}' is already used by a project CommandCenter did not create for this request`, false);
      }
      return { project: toCloudProject(existing) };
    },

    async pollCreateProject(operation) {
      const op = await findLocalOperation(db, operation);
      if (!op) throw new ProvisioningError(`local cloud: 404 NOT_FOUND: operation ${operation}`, false);
      return op.done ? toCloudProject(await project(op.project_id)) : null;
    },

    async linkBilling(projectId, billingAccount) {
      if (!(await setLocalBilling(db, projectId, billingAccount))) await project(projectId);
    },

    async setLabels(p, labels) {
      await mergeLocalLabels(db, (await project(p.projectId)).project_id, labels);
    },

    async billingAccountCurrency() {
      return opts.billingAccountCurrency ?? 'EUR';
    },

    async ensureBudget(b) {
      const units = `${b.amount.units}.${String(Math.round(b.amount.nanos / 10_000_000)).padStart(2, '0')}`;
      return ensureLocalBudget(db, {
        name: `${b.billingAccount}/budgets/${randomUUID()}`,
        billingAccount: b.billingAccount,
        displayName: b.displayName,
        projectName: b.projectName,
        currency: b.amount.currencyCode,
        amount: units,
      });
    },

    async capBigQueryQueryUsage(p, limitMiBPerDay) {
      // Lowering a limit takes effect at once.
      await ensureLocalQuota(db, { projectId: p.projectId, quota: 'bigquery.googleapis.com/quota/query/usage', value: limitMiBPerDay, state: 'granted' });
    },

    async requestComputeCpus(p, cpus, region) {
      const state = cpus <= grantedCpus ? 'granted' : 'requested';
      return ensureLocalQuota(db, { projectId: p.projectId, quota: `CPUS-per-project-region/${region}`, value: cpus, state });
    },

    async grantOwner(p, member) {
      await addLocalOwner(db, (await project(p.projectId)).project_id, member);
    },
  };
}
