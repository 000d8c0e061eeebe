/**
 * The customer form's state (spec 001 §2.4, 000 §3): numbers stay text while typed, lists are comma-separated
 * text. Its rules are in validate-customer.ts, the conversion to and from the wire in customer-convert.ts.
 */
import { CURRENCIES, DEFAULT_CURRENCY } from '@cc/shared/constants.ts';
import { normaliseCustomerId } from '@cc/shared/customers/rules.ts';
import type { CustomerCreate } from '@cc/shared/schemas/customers.ts';
import { COST_BASIS_LABELS, type CostBasis } from '@cc/shared/billing/cost-basis.ts';

export const DASHBOARD_TYPES = ['Standard', 'Set Discount', 'Tier Discount'] as const;
export { CURRENCIES };

export type Currency = NonNullable<CustomerCreate['billing_currency']>;
export type DashboardType = NonNullable<CustomerCreate['billing_dashboard_type']>;

export interface CustomerFormState {
  customer_name: string;
  customer_id: string;
  entity: string;
  billing_account_id: string;
  billing_currency: Currency;
  billing_dashboard_type: DashboardType;
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
  /** What alert quotas and anomaly detection judge: billed or amortised cost. */
  billing_cost_basis: CostBasis;
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
  billing_cost_basis: 'billed',
  business_units: '',
  products: '',
  env: '',
  owner_values: '',
  templates: [],
};

/** Sets one field; the form's parts receive it to edit their own fields. */
export type FieldSetter = <K extends keyof CustomerFormState>(key: K, value: CustomerFormState[K]) => void;
/** Replaces the state from the previous one, for edits that touch several fields or a list entry. */
export type FormUpdater = (update: (prev: CustomerFormState) => CustomerFormState) => void;

/** Customer Id from the name while it is typed (spec 000 §5): the server's own rule, so both show the same id. */
export const customerIdFromName = normaliseCustomerId;

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
/** The edit form's label of billing_cost_basis; the read-only Customer Settings page says it the same way. */
export const COST_BASIS_FIELD_LABEL = 'Alerts and anomalies judge';

/** A basis as the edit form offers it and the settings page shows it ('Billed cost', 'Amortised cost'). */
export const costBasisText = (b: CostBasis) => `${COST_BASIS_LABELS[b]} cost`;

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

/** Ticking or unticking a box, with the rule of spec 000 §4: no service account, no Inventory or System health. */
export function withFlag(f: CustomerFormState, name: FlagName, on: boolean): CustomerFormState {
  const next = { ...f, [name]: on };
  if (name === 'gcp_service_account' && !on) {
    next.inventory = false;
    next.system_health_dashboard = false;
  }
  return next;
}
