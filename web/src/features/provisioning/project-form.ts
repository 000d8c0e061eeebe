import { MESSAGES } from '@cc/shared/constants.ts';
import { FIELD_LABELS, generateProjectId, projectIdProblem, type ProjectTemplate } from '@cc/shared/provisioning/rules.ts';

export type ProjectField = keyof typeof FIELD_LABELS;
export type ProjectChoice = Record<ProjectField, string>;

export const EMPTY_CHOICE: ProjectChoice = { bu: '', product: '', env: '', owner_value: '', template_name: '' };

/** The selects in the spec's order (000 §2 /projectprovisioning/new). */
export const PROJECT_FIELDS: readonly ProjectField[] = ['bu', 'product', 'env', 'owner_value', 'template_name'];

/** 'This field is required' for every blank select. */
export function missingFields(choice: ProjectChoice): Partial<Record<ProjectField, string>> {
  return Object.fromEntries(PROJECT_FIELDS.filter((f) => !choice[f].trim()).map((f) => [f, MESSAGES.required]));
}

export interface DerivedProject {
  template: ProjectTemplate;
  /** The template's project_name with the chosen placeholders replaced (those not chosen yet stay as written). */
  projectId: string;
  /** 'owner_label = cost owner', or the owner label alone until a cost owner is chosen. */
  label: string;
  /** Google's id rule the id breaks, once business unit, product and environment are chosen. */
  idProblem: string | null;
}

/** What the form shows from the chosen template, before the api's check (which also knows the taken ids). */
export function deriveProject(choice: ProjectChoice, templates: readonly ProjectTemplate[]): DerivedProject | null {
  const template = templates.find((t) => t.template_name === choice.template_name);
  if (!template) return null;
  const filled = { bu: choice.bu || '{bu}', product: choice.product || '{product}', env: choice.env || '{env}' };
  const projectId = generateProjectId(template.project_template.project_name, filled);
  const owner = template.project_template.owner_label;
  const complete = Boolean(choice.bu && choice.product && choice.env);
  return { template, projectId, label: choice.owner_value ? `${owner} = ${choice.owner_value}` : owner, idProblem: complete ? projectIdProblem(projectId) : null };
}
