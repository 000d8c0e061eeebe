/**
 * Real provisioning adapter on Google's official clients, over their REST fallback (`fallback: true`): plain
 * HTTPS JSON, no gRPC channel to keep, and the same wire an in-process fake answers in tests.
 * Docs: Resource Manager v3 projects (create, get, search, patch, getIamPolicy, setIamPolicy), Cloud Billing
 * billingAccounts.get and projects.updateBillingInfo, Billing Budgets v1, Service Usage v1beta1 consumerOverrides, Cloud Quotas v1
 * quotaPreferences.
 */
import { ProjectsClient } from '@google-cloud/resource-manager';
import { CloudBillingClient } from '@google-cloud/billing';
import { BudgetServiceClient } from '@google-cloud/billing-budgets';
import { v1beta1 as serviceUsage } from '@google-cloud/service-usage';
import { CloudQuotasClient } from '@google-cloud/cloudquotas';
import { REQUEST_LABEL } from '../../provisioning/rules.ts';
import { ProvisioningError, type CloudProject, type CloudProvisioning } from '../../ports/cloud-provisioning.ts';
import { isAlreadyExists, isNotVisible, readGoogleError, toProvisioningError } from './google-errors.ts';

/** Options shared by the five clients; in tests `{ protocol: 'http', apiEndpoint, port, authClient }` of a fake. */
export type GoogleClientOptions = NonNullable<ConstructorParameters<typeof ProjectsClient>[0]>;

export interface GoogleProvisioningOptions {
  clientOptions?: GoogleClientOptions;
  /** Pause between two looks at a short operation (labels, quota override). */
  pollIntervalMs?: number;
  /** Looks before a short operation counts as still running (a transient failure: the job retries later). */
  maxPolls?: number;
}

/** Resource name of the limit behind BigQuery's "Query usage per day" (its metric and limit are URL-encoded in it). */
export const bigQueryQueryUsageLimit = (projectId: string) =>
  `projects/${projectId}/services/bigquery.googleapis.com/consumerQuotaMetrics/${encodeURIComponent('bigquery.googleapis.com/quota/query/usage')}/limits/${encodeURIComponent('/d/project')}`;

export const CPU_QUOTA_ID = 'CPUS-per-project-region';
/** One preference per quota and region; a fixed id lets a repeated request find the first one. */
export const cpuPreferenceId = (region: string) => `compute_googleapis_com-CPUS-per-project_${region}`;

const OWNER = 'roles/owner';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function toCloudProject(p: { name?: string | null; projectId?: string | null; labels?: Record<string, string> | null }): CloudProject {
  const name = p.name ?? '';
  return { name, projectNumber: name.replace(/^projects\//, ''), projectId: p.projectId ?? '', labels: { ...(p.labels ?? {}) } };
}

async function call<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw toProvisioningError(what, err);
  }
}

export function googleProvisioning(opts: GoogleProvisioningOptions = {}): CloudProvisioning {
  const clientOptions = { ...opts.clientOptions, fallback: true } as GoogleClientOptions;
  const projects = new ProjectsClient(clientOptions);
  const billing = new CloudBillingClient(clientOptions as ConstructorParameters<typeof CloudBillingClient>[0]);
  const budgets = new BudgetServiceClient(clientOptions as ConstructorParameters<typeof BudgetServiceClient>[0]);
  const usage = new serviceUsage.ServiceUsageClient(clientOptions as ConstructorParameters<typeof serviceUsage.ServiceUsageClient>[0]);
  const quotas = new CloudQuotasClient(clientOptions as ConstructorParameters<typeof CloudQuotasClient>[0]);
  const pollIntervalMs = opts.pollIntervalMs ?? 2000;
  const maxPolls = opts.maxPolls ?? 15;

  /** Polls a short operation to its end; its error becomes the step's error. */
  async function settle(what: string, check: () => Promise<{ done?: boolean; error?: unknown }>, alreadyExistsIsDone = false) {
    for (let i = 0; i < maxPolls; i++) {
      const op = await call(`${what} (operation)`, check);
      if (op.done) {
        if (op.error && !(alreadyExistsIsDone && isAlreadyExists(op.error))) throw toProvisioningError(what, op.error);
        return;
      }
      await sleep(pollIntervalMs);
    }
    throw new ProvisioningError(`${what}: the operation is still running`, true);
  }

  async function getProject(projectIdOrNumber: string): Promise<CloudProject> {
    const [p] = await call('projects.get', () => projects.getProject({ name: `projects/${projectIdOrNumber}` }));
    return toCloudProject(p);
  }

  /** Projects whose labels carry the request id (projects.search, which needs no parent). */
  async function findByRequestLabel(requestId: string): Promise<CloudProject | null> {
    const [found] = await call('projects.search', () => projects.searchProjects({ query: `labels.${REQUEST_LABEL}:${requestId}` }, { autoPaginate: false }));
    const p = found.find((x) => x.labels?.[REQUEST_LABEL] === requestId);
    return p ? toCloudProject(p) : null;
  }

  return {
    name: 'google',

    async createProject(p) {
      try {
        const [op] = await projects.createProject({ project: { projectId: p.projectId, displayName: p.displayName, parent: p.parent, labels: p.labels } });
        return { operation: op.name! };
      } catch (err) {
        if (!isAlreadyExists(err)) throw toProvisioningError('projects.create', err);
      }
      // The id exists: ours when the project carries our request label (our earlier create whose answer was lost).
      let existing: CloudProject;
      try {
        existing = toCloudProject((await projects.getProject({ name: `projects/${p.projectId}` }))[0]);
      } catch (err) {
        // Another organisation's project is invisible to us (403); so, for a moment, is one still being created.
        if (!isNotVisible(err)) throw toProvisioningError('projects.get', err);
        throw new ProvisioningError(`Project id '${p.projectId}' already exists and is not visible to CommandCenter: it is taken by another project`, true);
      }
      if (existing.labels[REQUEST_LABEL] !== p.labels[REQUEST_LABEL]) {
        throw new ProvisioningError(`Project id '${p.projectId}' is already used by a project CommandCenter did not create for this request`, false);
      }
      return { project: existing };
    },

    async pollCreateProject(operation, requestId) {
      let op;
      try {
        op = await projects.checkCreateProjectProgress(operation);
      } catch (err) {
        // Google deletes an operation some hours after it ends: a late look finds the project by our label instead.
        if (readGoogleError(err).status !== 'NOT_FOUND' && readGoogleError(err).http !== 404) throw toProvisioningError('projects.create (operation)', err);
        const found = await findByRequestLabel(requestId);
        if (found) return found;
        throw new ProvisioningError(`projects.create (operation) failed: ${operation} is gone and no project carries ${REQUEST_LABEL}=${requestId}`, false);
      }
      if (!op.done) return null;
      if (op.error) throw toProvisioningError('projects.create', op.error);
      return toCloudProject(op.result as { name?: string; projectId?: string; labels?: Record<string, string> });
    },

    async linkBilling(projectId, billingAccount) {
      await call('updateBillingInfo', () =>
        billing.updateProjectBillingInfo({ name: `projects/${projectId}`, projectBillingInfo: { billingAccountName: billingAccount } }),
      );
    },

    async setLabels(project, labels) {
      const current = await getProject(project.projectNumber);
      if (Object.entries(labels).every(([k, v]) => current.labels[k] === v)) return;
      const [op] = await call('projects.patch', () =>
        projects.updateProject({ project: { name: project.name, labels: { ...current.labels, ...labels } }, updateMask: { paths: ['labels'] } }),
      );
      if (!op.done) await settle('projects.patch', () => projects.checkUpdateProjectProgress(op.name!));
    },

    async billingAccountCurrency(billingAccount) {
      const [account] = await call('billingAccounts.get', () => billing.getBillingAccount({ name: billingAccount }));
      if (!account.currencyCode) throw new ProvisioningError(`billingAccounts.get: ${billingAccount} has no currencyCode`, false);
      return account.currencyCode;
    },

    async ensureBudget(b) {
      const existing = await call('budgets.list', async () => {
        for await (const budget of budgets.listBudgetsAsync({ parent: b.billingAccount })) {
          if (budget.displayName === b.displayName) return budget.name!;
        }
        return null;
      });
      if (existing) return existing;
      const [created] = await call('budgets.create', () =>
        budgets.createBudget({
          parent: b.billingAccount,
          budget: {
            displayName: b.displayName,
            budgetFilter: { projects: [b.projectName], calendarPeriod: 'MONTH', creditTypesTreatment: 'INCLUDE_ALL_CREDITS' },
            amount: { specifiedAmount: { currencyCode: b.amount.currencyCode, units: b.amount.units, nanos: b.amount.nanos } },
            // The console's defaults for a new budget: 50 %, 90 % and 100 % of actual spend.
            thresholdRules: [{ thresholdPercent: 0.5 }, { thresholdPercent: 0.9 }, { thresholdPercent: 1 }],
          },
        }),
      );
      return created.name!;
    },

    async capBigQueryQueryUsage(project, limitMiBPerDay) {
      let operation: string;
      try {
        const [op] = await usage.createConsumerOverride({
          parent: bigQueryQueryUsageLimit(project.projectId),
          override: { overrideValue: limitMiBPerDay, dimensions: {} },
          // A new project has no usage to protect; without force a cut of more than 10 % is refused.
          force: true,
        });
        operation = op.name!;
      } catch (err) {
        if (isAlreadyExists(err)) return; // our own override, from an earlier call whose answer was lost
        throw toProvisioningError('consumerOverrides.create', err);
      }
      await settle('consumerOverrides.create', () => usage.checkCreateConsumerOverrideProgress(operation), true);
    },

    async requestComputeCpus(project, cpus, region, contactEmail) {
      const parent = `projects/${project.projectId}/locations/global`;
      const id = cpuPreferenceId(region);
      let pref;
      try {
        [pref] = await quotas.createQuotaPreference({
          parent,
          quotaPreferenceId: id,
          quotaPreference: { service: 'compute.googleapis.com', quotaId: CPU_QUOTA_ID, dimensions: { region }, quotaConfig: { preferredValue: cpus }, contactEmail },
        });
      } catch (err) {
        if (!isAlreadyExists(err)) throw toProvisioningError('quotaPreferences.create', err);
        [pref] = await call('quotaPreferences.get', () => quotas.getQuotaPreference({ name: `${parent}/quotaPreferences/${id}` }));
      }
      // grantedValue is an Int64Value wrapper: { value } as a Long or string once decoded.
      const granted = Number(String(pref.quotaConfig?.grantedValue?.value ?? 0));
      return granted >= cpus ? 'granted' : 'requested';
    },

    async grantOwner(project, member) {
      const resource = `projects/${project.projectId}`;
      const [policy] = await call('projects.getIamPolicy', () => projects.getIamPolicy({ resource, options: { requestedPolicyVersion: 3 } }));
      const bindings = (policy.bindings ?? []).map((b) => ({ ...b, members: [...(b.members ?? [])] }));
      const owners = bindings.find((b) => b.role === OWNER && !b.condition);
      if (owners?.members.includes(member)) return;
      if (owners) owners.members.push(member);
      else bindings.push({ role: OWNER, members: [member] });
      // The etag makes a concurrent change answer 409 ABORTED (transient) instead of being overwritten.
      await call('projects.setIamPolicy', () => projects.setIamPolicy({ resource, policy: { version: policy.version, bindings, etag: policy.etag } }));
    },
  };
}
