/**
 * Project provisioning rules (spec 000 §2 /projectprovisioning, §3 Project template, §5 New project), as pure
 * functions: the api refuses what they refuse (400 with the message) and the 'New Project' form shows the same
 * answers before submit, so a bad project id is a clear message, not a failed job later.
 */
import { InputError, REQUIRED } from '../input-error.ts';

/** A customer's project template as stored in `customer.project_provisioning` (schemas/customers.ts ProjectTemplate). */
export interface ProjectTemplate {
  template_name: string;
  folder_name: string;
  folder_number: string;
  project_template: {
    project_type: string;
    default_admin: string;
    budget: number;
    owner_label: string;
    /** With the placeholders {bu}, {product} and {env}. */
    project_name: string;
    quota: { bigquery_analysis: number; compute_engine_cpus: number };
  };
}

// ── States ──────────────────────────────────────────────────────────────────────────────────────

export const PROJECT_STATES = ['Pending approval', 'Approved', 'Creating', 'Active', 'Rejected', 'Failed'] as const;
export type ProjectState = (typeof PROJECT_STATES)[number];

/**
 * Who moves a request where:
 * - a customer's request starts Pending approval; a provider admin approves or rejects it;
 * - the worker takes an Approved request to Creating, then to Active or Failed (with the failing step and error);
 * - an admin retries a Failed request (back to Approved: the worker resumes at the failing step) or rejects it.
 */
export const STATE_TRANSITIONS: Record<ProjectState, readonly ProjectState[]> = {
  'Pending approval': ['Approved', 'Rejected'],
  Approved: ['Creating', 'Failed'],
  Creating: ['Active', 'Failed'],
  Active: [],
  Rejected: [],
  Failed: ['Approved', 'Rejected'],
};

export const canTransition = (from: ProjectState, to: ProjectState): boolean => STATE_TRANSITIONS[from].includes(to);

/** States that hold their generated project id: only a rejected request gives it back. */
export const ID_HOLDING_STATES: readonly ProjectState[] = PROJECT_STATES.filter((s) => s !== 'Rejected');

// ── Steps ───────────────────────────────────────────────────────────────────────────────────────

/** The worker's chain, in order; after the last one the request is Active. */
export const PROVISIONING_STEPS = [
  'create_project',
  'await_project',
  'link_billing',
  'labels',
  'budget',
  'quota_bigquery',
  'quota_compute',
  'default_admin',
] as const;
export type ProvisioningStep = (typeof PROVISIONING_STEPS)[number];

/** What a row shows while its project is being created (and names the failing step of a Failed one). */
export const STEP_LABELS: Record<ProvisioningStep, string> = {
  create_project: 'Creating project',
  await_project: 'Waiting for the project',
  link_billing: 'Linking billing account',
  labels: 'Setting labels',
  budget: 'Creating budget',
  quota_bigquery: 'Setting BigQuery quota',
  quota_compute: 'Requesting Compute Engine CPUs',
  default_admin: 'Granting the default admin',
};

/** The step after `step`, or null when `step` is the last one. */
export function nextStep(step: ProvisioningStep): ProvisioningStep | null {
  const i = PROVISIONING_STEPS.indexOf(step);
  return PROVISIONING_STEPS[i + 1] ?? null;
}

// ── Google's naming rules ───────────────────────────────────────────────────────────────────────

/**
 * The label every project we create carries, valued with the request id: a 409 ALREADY_EXISTS answered to a
 * retried create is ours exactly when the existing project has it.
 */
export const REQUEST_LABEL = 'commandcenter-request';

export const PROJECT_ID_MESSAGES = {
  length: (id: string) => `Project id '${id}' must be 6 to 30 characters long`,
  start: (id: string) => `Project id '${id}' must start with a lower-case letter`,
  chars: (id: string) => `Project id '${id}' may contain only lower-case letters, digits and hyphens`,
  end: (id: string) => `Project id '${id}' must not end with a hyphen`,
  placeholder: (id: string) => `Project id '${id}' still holds a placeholder: only {bu}, {product} and {env} are replaced`,
} as const;

/** Google's project id rules (Resource Manager): the first broken rule's message, or null when the id is valid. */
export function projectIdProblem(id: string): string | null {
  if (/[{}]/.test(id)) return PROJECT_ID_MESSAGES.placeholder(id);
  if (id.length < 6 || id.length > 30) return PROJECT_ID_MESSAGES.length(id);
  if (!/^[a-z]/.test(id)) return PROJECT_ID_MESSAGES.start(id);
  if (!/^[a-z0-9-]+$/.test(id)) return PROJECT_ID_MESSAGES.chars(id);
  if (id.endsWith('-')) return PROJECT_ID_MESSAGES.end(id);
  return null;
}

/**
 * Label rules (cloud.google.com/resource-manager/docs/labels-overview): keys 1–63 characters starting with a
 * lower-case letter, values 0–63 characters; both only lower-case letters, digits, underscores and hyphens.
 * Google also allows international lower-case letters; we keep to ASCII so every API and export takes them.
 */
export function labelKeyProblem(key: string): string | null {
  if (key.length < 1 || key.length > 63) return `Label key '${key}' must be 1 to 63 characters long`;
  if (!/^[a-z]/.test(key)) return `Label key '${key}' must start with a lower-case letter`;
  if (!/^[a-z0-9_-]+$/.test(key)) return `Label key '${key}' may contain only lower-case letters, digits, underscores and hyphens`;
  return null;
}

export function labelValueProblem(value: string): string | null {
  if (value.length > 63) return `Label value '${value}' must be at most 63 characters long`;
  if (!/^[a-z0-9_-]*$/.test(value)) return `Label value '${value}' may contain only lower-case letters, digits, underscores and hyphens`;
  return null;
}

/** The template's project_name with every {bu}, {product} and {env} replaced by the choices. */
export function generateProjectId(projectName: string, choice: { bu: string; product: string; env: string }): string {
  return projectName.replaceAll('{bu}', choice.bu).replaceAll('{product}', choice.product).replaceAll('{env}', choice.env);
}

/** The labels a provisioned project carries: the owner label set to the cost owner, and our request marker. */
export function projectLabels(template: ProjectTemplate, ownerValue: string, requestId: string): Record<string, string> {
  return { [template.project_template.owner_label]: ownerValue, [REQUEST_LABEL]: requestId };
}

/** IAM member of the template's default admin: an e-mail is a user; a typed member (group:…) stays as written. */
export function adminMember(defaultAdmin: string): string {
  return /^(user|group|serviceAccount|domain):/.test(defaultAdmin) ? defaultAdmin : `user:${defaultAdmin}`;
}

// ── The New Project form ────────────────────────────────────────────────────────────────────────

export interface NewProjectInput {
  bu?: string;
  product?: string;
  env?: string;
  owner_value?: string;
  template_name?: string;
}

/** The customer fields the form chooses from (spec 000 §3). */
export interface ProvisioningChoices {
  business_units: string[];
  products: string[];
  env: string[];
  owner_values: string[];
  project_provisioning: ProjectTemplate[];
}

export interface CheckedProjectRequest {
  bu: string;
  product: string;
  env: string;
  owner_value: string;
  template: ProjectTemplate;
  /** The generated project id (also the project's display name). */
  project_name: string;
}

/** Form labels, as the 'New Project' form names its selects (spec 000 §2). */
export const FIELD_LABELS = {
  bu: 'Business Unit',
  product: 'Product',
  env: 'Environment',
  owner_value: 'Cost Owner',
  template_name: 'Project Template',
} as const;

function choose(value: string | undefined, field: keyof typeof FIELD_LABELS, allowed: string[]): string {
  const v = (value ?? '').trim();
  if (v === '') throw new InputError(`${FIELD_LABELS[field]}: ${REQUIRED}`);
  if (!allowed.includes(v)) throw new InputError(`${FIELD_LABELS[field]} '${v}' is not one of the customer's choices`);
  return v;
}

/**
 * Checks a New Project request against the customer's choices and Google's rules. The template is taken from the
 * customer by name, never from the request body, so a request cannot bring its own folder, budget or admin.
 */
export function checkNewProject(input: NewProjectInput, customer: ProvisioningChoices): CheckedProjectRequest {
  const bu = choose(input.bu, 'bu', customer.business_units);
  const product = choose(input.product, 'product', customer.products);
  const env = choose(input.env, 'env', customer.env);
  const owner_value = choose(input.owner_value, 'owner_value', customer.owner_values);
  const templateName = choose(input.template_name, 'template_name', customer.project_provisioning.map((t) => t.template_name));
  const template = customer.project_provisioning.find((t) => t.template_name === templateName)!;

  const project_name = generateProjectId(template.project_template.project_name, { bu, product, env });
  const problem =
    projectIdProblem(project_name) ??
    labelKeyProblem(template.project_template.owner_label) ??
    labelValueProblem(owner_value) ??
    (template.project_template.owner_label === REQUEST_LABEL ? `Label key '${REQUEST_LABEL}' is reserved` : null) ??
    (/^\d+$/.test(template.folder_number.trim()) ? null : `Folder number '${template.folder_number}' of template '${templateName}' must be digits`) ??
    (template.project_template.default_admin.trim() === '' ? `Default admin of template '${templateName}': ${REQUIRED}` : null);
  if (problem) throw new InputError(problem);
  return { bu, product, env, owner_value, template, project_name };
}

// ── Amounts ─────────────────────────────────────────────────────────────────────────────────────

/** A template budget as Google's Money: whole units as a string, the fraction in nanos (cents are the finest step). */
export function budgetMoney(budget: number, currencyCode: string): { currencyCode: string; units: string; nanos: number } {
  const cents = Math.round(budget * 100);
  return { currencyCode, units: String(Math.trunc(cents / 100)), nanos: (cents % 100) * 10_000_000 };
}

/**
 * The template's bigquery_analysis is TiB of query data a day (the unit the console shows for "Query usage per
 * day"); the Service Usage limit `/d/project` of `bigquery.googleapis.com/quota/query/usage` counts MiB.
 */
export const bigQueryDailyLimitMiB = (tib: number): number => Math.round(tib * 1024 * 1024);
