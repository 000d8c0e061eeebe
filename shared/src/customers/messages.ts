/**
 * Customer fields as a person reads them (a 400 on the customer form once said "body/billing_dashboard_type
 * must be equal to constant, … must match a schema in anyOf"). Every 400 of the customer create / update routes
 * names the field with the form's own label (spec 001 §2.4) and says what is wanted, in the tickets' style:
 * 'Discount (%): This field is required', 'Currency must be one of EUR, GBP, USD, DKK'. Other routes keep the
 * generic "{part}/{property} …" detail of the error handler.
 */
import { CURRENCIES } from '../constants.ts';
import { REQUIRED } from '../input-error.ts';

/** The form's labels by wire name; nested names (tier rows, project templates) too. */
export const CUSTOMER_FIELD_LABELS: Record<string, string> = {
  customer_id: 'Customer Id',
  customer_name: 'Name',
  entity: 'Entity',
  billing_account_id: 'Billing account Id',
  billing_currency: 'Currency',
  billing_dashboard_type: 'Dashboard type',
  billing_dashboard_set_discount: 'Discount (%)',
  billing_dashboard_tier_discount: 'Discount tiers',
  threshold_spend: 'Threshold spend',
  percentage: 'Percentage',
  support_request: 'Rapid Architecture Ticket',
  billing_viewer: 'Billing Viewer',
  gcp_service_account: 'Service Account',
  service_account_email: 'Service account e-mail',
  inventory: 'Inventory',
  system_health_dashboard: 'System health',
  grafana_external_link: 'Customized monitoring dashboard link',
  documentation: 'Documentation',
  drive_id: 'Custom drive folder',
  workspace_license: 'Workspace License',
  domain_name: 'Workspace license domain identifier',
  anomaly_detection: 'Anomaly Detection Enable',
  minimum_anomaly_threshold: 'Minimum Threshold',
  minimum_value_toggled_anomaly: 'Minimum Require Change Amount',
  business_units: 'Business units',
  products: 'Products',
  env: 'Environments',
  owner_values: 'Cost owners',
  project_provisioning: 'Project templates',
  template_name: 'Template name',
  folder_name: 'Folder name',
  folder_number: 'Folder number',
  project_template: 'Project template',
  project_type: 'Project type',
  default_admin: 'Default admin',
  budget: 'Budget',
  owner_label: 'Owner label',
  project_name: 'Project name',
  quota: 'Quota',
  bigquery_analysis: 'BigQuery analysis',
  compute_engine_cpus: 'Compute Engine CPUs',
};

/**
 * Dashboard types a customer may be given. 'Discount' is the stored name spec 000 §3 lists beside Standard and
 * Tier Discount; the dashboards and spec 001 call the same type 'Set Discount', which is what is stored.
 */
export const DASHBOARD_TYPE_NAMES = ['Standard', 'Set Discount', 'Tier Discount'] as const;
export const DASHBOARD_TYPE_ALIASES: Record<string, (typeof DASHBOARD_TYPE_NAMES)[number]> = { Discount: 'Set Discount' };

/** A field's allowed values, for 'must be one of'. */
const CHOICES: Record<string, readonly string[]> = {
  billing_currency: CURRENCIES,
  billing_dashboard_type: DASHBOARD_TYPE_NAMES,
};

const humanise = (name: string) => name.charAt(0).toUpperCase() + name.slice(1).replace(/_/g, ' ');

/** The label of a wire name. */
export function customerFieldLabel(name: string): string {
  return CUSTOMER_FIELD_LABELS[name] ?? humanise(name);
}

/** '{label}: This field is required', for the rules the schema cannot say (blank after trimming, needed by another field). */
export function customerRequired(field: string): string {
  return `${customerFieldLabel(field)}: ${REQUIRED}`;
}

/** '{label}: {problem}' */
export function customerProblem(field: string, problem: string): string {
  return `${customerFieldLabel(field)}: ${problem}`;
}

/** One schema failure as ajv reports it (the fields used here). */
export interface SchemaFailure {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

/** '/billing_dashboard_tier_discount/0/threshold_spend' → 'Discount tiers, row 1: Threshold spend'. */
function where(path: string[]): string {
  const parts: string[] = [];
  for (let i = 0; i < path.length; i++) {
    const seg = path[i]!;
    if (/^\d+$/.test(seg)) {
      parts[parts.length - 1] += `, ${path[i - 1] === 'project_provisioning' ? 'template' : 'row'} ${Number(seg) + 1}`;
    } else parts.push(customerFieldLabel(seg));
  }
  return parts.join(': ');
}

const TYPE_WORDS: Record<string, string> = {
  number: 'a number',
  integer: 'a whole number',
  boolean: 'true or false',
  string: 'text',
  array: 'a list',
  object: 'a group of fields',
};

/** What one failure says, or null when another failure of the same field says it better. */
function sentence(f: SchemaFailure): string | null {
  const path = f.instancePath.split('/').filter(Boolean);
  const field = path[path.length - 1];
  if (f.keyword === 'required') {
    return `${where([...path, String(f.params.missingProperty)])}: ${REQUIRED}`;
  }
  if (path.length === 0) return f.keyword === 'type' ? 'The customer must be sent as a JSON object' : null;
  const subject = where(path);
  if (field && CHOICES[field] && path.length === 1) return `${subject} must be one of ${CHOICES[field]!.join(', ')}`;
  switch (f.keyword) {
    case 'type':
      // A nullable field's 'must be null' branch: the other branch's failure says what is wanted.
      if (f.params.type === 'null') return null;
      return `${subject} must be ${TYPE_WORDS[String(f.params.type)] ?? String(f.params.type)}`;
    case 'minimum':
      return `${subject} must be ${String(f.params.limit)} or more`;
    case 'maximum':
      return `${subject} must be ${String(f.params.limit)} or less`;
    case 'minLength':
      return `${subject}: ${REQUIRED}`;
    case 'anyOf':
    case 'const':
      return null;
    default:
      return `${subject} ${f.message ?? 'is not valid'}`;
  }
}

/**
 * The detail of a 400 for a customer body that failed its schema: the first failure that reads as a sentence
 * (ajv lists one per union branch; one clear sentence helps more than all of them).
 */
export function customerSchemaMessage(failures: readonly SchemaFailure[]): string {
  for (const f of failures) {
    const s = sentence(f);
    if (s) return s;
  }
  return 'The customer could not be read: check the fields and try again';
}
