import { CURRENCIES, DEFAULT_CURRENCY, EMAIL_RE, MESSAGES } from '@cc/shared/constants.ts';
import type { CustomerDocument } from '@cc/shared/schemas/customer.ts';
import type { CustomerInput, DiscountTier } from '../customersApi.ts';

export const DASHBOARD_TYPES = ['Standard', 'Set Discount', 'Tier Discount'] as const;
export { CURRENCIES };

export const MIN_CUSTOMER_ID_LENGTH = 6;
export const CUSTOMER_ID_TOO_SHORT = 'Must have at least 6 characters';
export const NOT_A_NUMBER = 'Must be a number';
export const NO_TIERS = 'Add at least one tier';
export const PERCENT_RANGE = 'Must be between 0 and 100';
export const NOT_NEGATIVE = 'Must be 0 or greater';
export const EMAIL_INVALID = 'Email is not valid';

/** The form's own state: numbers stay text while typed, lists are comma-separated text. */
export interface CustomerFormState {
  customer_name: string;
  customer_id: string;
  entity: string;
  billing_account_id: string;
  billing_currency: string;
  billing_dashboard_type: string;
  billing_dashboard_set_discount: string;
  tiers: { threshold_spend: string; percentage: string }[];
  support_request: boolean;
  billing_viewer: boolean;
  gcp_service_account: boolean;
  service_account_email: string;
  inventory: boolean;
  system_health_dashboard: boolean;
  grafana_external_link: string;
  documentation: boolean;
  drive_id: string;
  workspace_license: boolean;
  domain_name: string;
  anomaly_detection: boolean;
  minimum_anomaly_threshold: string;
  minimum_value_toggled_anomaly: string;
  business_units: string;
  products: string;
  env: string;
  owner_values: string;
  templates: TemplateForm[];
}

/**
 * One project template (spec 000 §3) as typed: template_name, folder_name, folder_number and the
 * project_template's project_type, default_admin, budget, owner_label, project_name and quota, flattened.
 */
export interface TemplateForm {
  template_name: string;
  folder_name: string;
  folder_number: string;
  project_type: string;
  default_admin: string;
  budget: string;
  owner_label: string;
  project_name: string;
  bigquery_analysis: string;
  compute_engine_cpus: string;
}
export type TemplateField = keyof TemplateForm;

/** Template fields holding numbers (budget and the two quotas). */
export const TEMPLATE_NUMBER_FIELDS: readonly TemplateField[] = ['budget', 'bigquery_analysis', 'compute_engine_cpus'];
export const DUPLICATE_TEMPLATE = 'Template names must be unique';

export const EMPTY_TEMPLATE: TemplateForm = {
  template_name: '',
  folder_name: '',
  folder_number: '',
  project_type: '',
  default_admin: '',
  budget: '0',
  owner_label: '',
  project_name: '',
  bigquery_analysis: '0',
  compute_engine_cpus: '0',
};

export type CustomerFormErrors = Partial<
  Record<keyof CustomerFormState | `tier.${number}.${'threshold_spend' | 'percentage'}` | `template.${number}.${TemplateField}`, string>
>;

export const EMPTY_CUSTOMER_FORM: CustomerFormState = {
  customer_name: '',
  customer_id: '',
  entity: '',
  billing_account_id: '',
  billing_currency: DEFAULT_CURRENCY,
  billing_dashboard_type: 'Standard',
  billing_dashboard_set_discount: '',
  tiers: [],
  support_request: false,
  billing_viewer: false,
  gcp_service_account: false,
  service_account_email: '',
  inventory: false,
  system_health_dashboard: false,
  grafana_external_link: '',
  documentation: false,
  drive_id: '',
  workspace_license: false,
  domain_name: '',
  anomaly_detection: false,
  minimum_anomaly_threshold: '20',
  minimum_value_toggled_anomaly: '10',
  business_units: '',
  products: '',
  env: '',
  owner_values: '',
  templates: [],
};

/**
 * Customer Id from the name (spec 000 §5): lower-cased, spaces removed, letters and hyphens only
 * (accents dropped, other characters left out).
 */
export function deriveCustomerId(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z-]/g, '');
}

/** Billing account ids have no spaces; several are comma-separated (spec 001 §2.4). */
export function cleanBillingAccountIds(value: string): string {
  return value.replace(/\s+/g, '');
}

const DRIVE_FOLDER_PREFIX = /^\s*https?:\/\/drive\.google\.com\/(?:drive\/)?(?:u\/\d+\/)?(?:folders\/|.*[?&]id=)/i;

/** A pasted folder URL keeps only the folder id (spec 001 §2.4). */
export function stripDriveFolderPrefix(value: string): string {
  const m = DRIVE_FOLDER_PREFIX.exec(value);
  if (!m) return value.trim();
  return value.slice(m[0].length).split(/[?&#/]/)[0]!.trim();
}

const isNumber = (s: string) => s.trim() !== '' && Number.isFinite(Number(s.trim()));
const list = (s: string) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

/** Every rule of spec 001 §5 and 000 §5 for the customer form; empty when the form may be saved. */
export function validateCustomerForm(f: CustomerFormState): CustomerFormErrors {
  const e: CustomerFormErrors = {};
  if (!f.customer_name.trim()) e.customer_name = MESSAGES.required;
  if (!f.customer_id) e.customer_id = MESSAGES.required;
  else if (f.customer_id.length < MIN_CUSTOMER_ID_LENGTH || !/^[a-z-]+$/.test(f.customer_id)) e.customer_id = CUSTOMER_ID_TOO_SHORT;
  if (!f.entity) e.entity = MESSAGES.required;
  if (!cleanBillingAccountIds(f.billing_account_id).replace(/,/g, '')) e.billing_account_id = MESSAGES.required;
  if (f.billing_dashboard_type === 'Set Discount') {
    const d = f.billing_dashboard_set_discount;
    if (!d.trim()) e.billing_dashboard_set_discount = MESSAGES.required;
    else if (!isNumber(d)) e.billing_dashboard_set_discount = NOT_A_NUMBER;
    else if (Number(d) < 0 || Number(d) > 100) e.billing_dashboard_set_discount = PERCENT_RANGE;
  }
  if (f.billing_dashboard_type === 'Tier Discount') {
    if (f.tiers.length === 0) e.tiers = NO_TIERS;
    f.tiers.forEach((t, i) => {
      if (!isNumber(t.threshold_spend)) e[`tier.${i}.threshold_spend`] = NOT_A_NUMBER;
      else if (Number(t.threshold_spend) < 0) e[`tier.${i}.threshold_spend`] = NOT_NEGATIVE;
      if (!isNumber(t.percentage)) e[`tier.${i}.percentage`] = NOT_A_NUMBER;
      else if (Number(t.percentage) < 0 || Number(t.percentage) > 100) e[`tier.${i}.percentage`] = PERCENT_RANGE;
    });
  }
  if (f.gcp_service_account) {
    if (!f.service_account_email.trim()) e.service_account_email = MESSAGES.required;
    else if (!EMAIL_RE.test(f.service_account_email.trim())) e.service_account_email = EMAIL_INVALID;
  }
  if (f.workspace_license && !f.domain_name.trim()) e.domain_name = MESSAGES.required;
  if (f.anomaly_detection) {
    if (!isNumber(f.minimum_anomaly_threshold)) e.minimum_anomaly_threshold = NOT_A_NUMBER;
    else if (Number(f.minimum_anomaly_threshold) < 0) e.minimum_anomaly_threshold = NOT_NEGATIVE;
    if (!isNumber(f.minimum_value_toggled_anomaly)) e.minimum_value_toggled_anomaly = NOT_A_NUMBER;
    else if (Number(f.minimum_value_toggled_anomaly) < 0) e.minimum_value_toggled_anomaly = NOT_NEGATIVE;
  }
  const names = new Set<string>();
  f.templates.forEach((tp, i) => {
    const name = tp.template_name.trim();
    if (!name) e[`template.${i}.template_name`] = MESSAGES.required;
    else if (names.has(name)) e[`template.${i}.template_name`] = DUPLICATE_TEMPLATE;
    names.add(name);
    for (const k of TEMPLATE_NUMBER_FIELDS) {
      if (!tp[k].trim()) e[`template.${i}.${k}`] = MESSAGES.required;
      else if (!isNumber(tp[k])) e[`template.${i}.${k}`] = NOT_A_NUMBER;
      else if (Number(tp[k]) < 0) e[`template.${i}.${k}`] = NOT_NEGATIVE;
    }
  });
  return e;
}

/** The stored customer as form state. */
export function formFromCustomer(c: CustomerDocument): CustomerFormState {
  const s = (v: unknown, fallback = '') => (v === null || v === undefined ? fallback : String(v));
  const arr = (v: unknown) => (Array.isArray(v) ? v.map(String).join(', ') : '');
  const tiers = Array.isArray(c.billing_dashboard_tier_discount) ? (c.billing_dashboard_tier_discount as DiscountTier[]) : [];
  return {
    customer_name: c.customer_name,
    customer_id: c.customer_id,
    entity: c.entity ?? '',
    billing_account_id: c.billing_account_id,
    billing_currency: c.billing_currency || DEFAULT_CURRENCY,
    billing_dashboard_type: s(c.billing_dashboard_type, 'Standard'),
    billing_dashboard_set_discount: s(c.billing_dashboard_set_discount),
    tiers: tiers.map((t) => ({ threshold_spend: String(t.threshold_spend), percentage: String(t.percentage) })),
    support_request: c.support_request,
    billing_viewer: c.billing_viewer,
    gcp_service_account: c.gcp_service_account,
    service_account_email: s(c.service_account_email),
    inventory: c.inventory,
    system_health_dashboard: c.system_health_dashboard,
    grafana_external_link: s(c.grafana_external_link),
    documentation: c.documentation,
    drive_id: s(c.drive_id),
    workspace_license: c.workspace_license,
    domain_name: s(c.domain_name),
    anomaly_detection: c.anomaly_detection,
    minimum_anomaly_threshold: s(c.minimum_anomaly_threshold, '20'),
    minimum_value_toggled_anomaly: s(c.minimum_value_toggled_anomaly, '10'),
    business_units: arr(c.business_units),
    products: arr(c.products),
    env: arr(c.env),
    owner_values: arr(c.owner_values),
    templates: (Array.isArray(c.project_provisioning) ? c.project_provisioning : []).map(templateForm),
  };
}

/** What the api receives; call only when `validateCustomerForm` found nothing. */
export function inputFromForm(f: CustomerFormState): CustomerInput {
  const tier = f.billing_dashboard_type === 'Tier Discount';
  return {
    customer_id: f.customer_id,
    customer_name: f.customer_name.trim(),
    entity: f.entity,
    billing_account_id: cleanBillingAccountIds(f.billing_account_id)
      .split(',')
      .filter(Boolean)
      .join(','),
    billing_currency: f.billing_currency,
    billing_dashboard_type: f.billing_dashboard_type,
    billing_dashboard_set_discount: f.billing_dashboard_type === 'Set Discount' ? Number(f.billing_dashboard_set_discount) : null,
    billing_dashboard_tier_discount: tier
      ? f.tiers.map((t) => ({ threshold_spend: Number(t.threshold_spend), percentage: Number(t.percentage) }))
      : [],
    support_request: f.support_request,
    billing_viewer: f.billing_viewer,
    gcp_service_account: f.gcp_service_account,
    service_account_email: f.gcp_service_account ? f.service_account_email.trim() : '',
    inventory: f.gcp_service_account && f.inventory,
    system_health_dashboard: f.gcp_service_account && f.system_health_dashboard,
    grafana_external_link: f.grafana_external_link.trim(),
    documentation: f.documentation,
    drive_id: stripDriveFolderPrefix(f.drive_id),
    workspace_license: f.workspace_license,
    domain_name: f.domain_name.trim(),
    anomaly_detection: f.anomaly_detection,
    minimum_anomaly_threshold: Number(f.minimum_anomaly_threshold),
    minimum_value_toggled_anomaly: Number(f.minimum_value_toggled_anomaly),
    business_units: list(f.business_units),
    products: list(f.products),
    env: list(f.env),
    owner_values: list(f.owner_values),
    project_provisioning: f.templates.map(templateInput),
  };
}

/** A stored template as form fields (missing parts read as blank, numbers as text). */
export function templateForm(raw: unknown): TemplateForm {
  const r = (raw ?? {}) as Record<string, unknown>;
  const pt = (r.project_template ?? {}) as Record<string, unknown>;
  const quota = (pt.quota ?? {}) as Record<string, unknown>;
  const s = (v: unknown, fallback = '') => (v === null || v === undefined ? fallback : String(v));
  return {
    template_name: s(r.template_name),
    folder_name: s(r.folder_name),
    folder_number: s(r.folder_number),
    project_type: s(pt.project_type),
    default_admin: s(pt.default_admin),
    budget: s(pt.budget, '0'),
    owner_label: s(pt.owner_label),
    project_name: s(pt.project_name),
    bigquery_analysis: s(quota.bigquery_analysis, '0'),
    compute_engine_cpus: s(quota.compute_engine_cpus, '0'),
  };
}

/** The template as the api stores it (spec 000 §3 Project template). */
export function templateInput(tp: TemplateForm) {
  return {
    template_name: tp.template_name.trim(),
    folder_name: tp.folder_name.trim(),
    folder_number: tp.folder_number.trim(),
    project_template: {
      project_type: tp.project_type.trim(),
      default_admin: tp.default_admin.trim(),
      budget: Number(tp.budget),
      owner_label: tp.owner_label.trim(),
      project_name: tp.project_name.trim(),
      quota: { bigquery_analysis: Number(tp.bigquery_analysis), compute_engine_cpus: Number(tp.compute_engine_cpus) },
    },
  };
}

/** Ticking or unticking a box, with the rule of spec 000 §4: no service account, no Inventory or System health. */
export function withFlag(f: CustomerFormState, name: FlagName, on: boolean): CustomerFormState {
  const next = { ...f, [name]: on };
  if (name === 'gcp_service_account' && !on) {
    next.inventory = false;
    next.system_health_dashboard = false;
  }
  return next;
}

export type FlagName =
  | 'support_request'
  | 'billing_viewer'
  | 'gcp_service_account'
  | 'inventory'
  | 'system_health_dashboard'
  | 'documentation'
  | 'workspace_license'
  | 'anomaly_detection';

/** The checkboxes in the order and with the labels of spec 001 §2.4. */
export const FLAG_LABELS: { name: FlagName; label: string }[] = [
  { name: 'support_request', label: 'Rapid Architecture Ticket' },
  { name: 'billing_viewer', label: 'Billing Viewer' },
  { name: 'gcp_service_account', label: 'Service Account' },
  { name: 'inventory', label: 'Inventory' },
  { name: 'system_health_dashboard', label: 'System health' },
  { name: 'documentation', label: 'Documentation' },
  { name: 'workspace_license', label: 'Workspace License' },
  { name: 'anomaly_detection', label: 'Anomaly Detection Enable' },
];
