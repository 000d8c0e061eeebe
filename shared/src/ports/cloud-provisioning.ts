/**
 * Port: the cloud calls of the project provisioning chain, one method per step. `real` speaks to
 * Google through the official clients (shared/src/adapters/provisioning/real.ts); `local` keeps a small cloud
 * in PostgreSQL (shared/src/adapters/provisioning/local.ts).
 *
 * Every method is idempotent: the worker may crash after the cloud did the work but before the step was
 * recorded, and then calls the same method again. A second call must find the first one's result instead of
 * making another project, budget or quota request.
 */

/** A project as Resource Manager v3 describes it. */
export interface CloudProject {
  /** `projects/{number}`. */
  name: string;
  projectNumber: string;
  projectId: string;
  labels: Record<string, string>;
}

export interface NewCloudProject {
  projectId: string;
  displayName: string;
  /** `folders/{number}`. */
  parent: string;
  /** Must hold REQUEST_LABEL = the request id: that is how a retried create recognises its own project. */
  labels: Record<string, string>;
}

/**
 * A started creation (poll `operation`), or the project itself when a retried create found that the id is
 * already taken by a project carrying our request label (409 ALREADY_EXISTS after a lost answer).
 */
export type CreateProjectResult = { operation: string } | { project: CloudProject };

export interface NewBudget {
  /** `billingAccounts/{id}`. */
  billingAccount: string;
  /** Also how a repeated call finds the budget it made: unique per billing account. */
  displayName: string;
  /** `projects/{number}`: the Budgets API filters by project number, not id. */
  projectName: string;
  amount: { currencyCode: string; units: string; nanos: number };
}

export type QuotaRequestState = 'granted' | 'requested';

/**
 * Why a step failed. `transient` errors (rate limits, unavailability, an operation still running) are worth
 * retrying as they are; the others need a person (permission, an id taken by someone else, bad input).
 */
export class ProvisioningError extends Error {
  constructor(
    message: string,
    readonly transient: boolean,
  ) {
    super(message);
    this.name = 'ProvisioningError';
  }
}

export interface CloudProvisioning {
  readonly name: 'google' | 'local';
  /** projects.create in the folder; 409 with our label → `{ project }`; 409 without → a ProvisioningError. */
  createProject(p: NewCloudProject): Promise<CreateProjectResult>;
  /**
   * One look at the creation operation: the project once it is done, null while it runs; its error is thrown.
   * Google deletes an operation some hours after it ends: then the project is looked up by the request label
   * (`requestId`), and only a request without such a project fails.
   */
  pollCreateProject(operation: string, requestId: string): Promise<CloudProject | null>;
  /** Cloud Billing updateBillingInfo (a PUT: repeating it changes nothing). */
  linkBilling(projectId: string, billingAccount: string): Promise<void>;
  /** Merges `labels` into the project's labels; no call when they are already there. */
  setLabels(project: CloudProject, labels: Record<string, string>): Promise<void>;
  /**
   * The billing account's currency (Cloud Billing billingAccounts.get `currencyCode`): a budget's amount must be
   * in it, whatever currency the portal shows the customer.
   */
  billingAccountCurrency(billingAccount: string): Promise<string>;
  /** The budget named `displayName` on the billing account, made when there is none. Returns its name. */
  ensureBudget(b: NewBudget): Promise<string>;
  /**
   * Caps BigQuery query usage per day (MiB) with a Service Usage consumer override. An override can only lower
   * a limit; an existing one (ours, from a lost answer) counts as done.
   */
  capBigQueryQueryUsage(project: CloudProject, limitMiBPerDay: number): Promise<void>;
  /** A Cloud Quotas preference for Compute Engine CPUs in `region`; Google grants it later, so usually 'requested'. */
  requestComputeCpus(project: CloudProject, cpus: number, region: string, contactEmail: string): Promise<QuotaRequestState>;
  /** Adds `member` to roles/owner in the project's IAM policy; no write when it is already there. */
  grantOwner(project: CloudProject, member: string): Promise<void>;
}
