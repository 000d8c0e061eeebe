/** The customer form state to and from the wire: the stored document in, the create / update body out. */
import { CURRENCIES, DEFAULT_CURRENCY } from '@cc/shared/constants.ts';
import type { CustomerCreate, CustomerDocument, ProjectTemplate } from '@cc/shared/schemas/customers.ts';
import { COST_BASES, type CostBasis } from '@cc/shared/billing/cost-basis.ts';
import {
  DASHBOARD_TYPES,
  cleanBillingAccountIds,
  stripDriveFolderPrefix,
  type Currency,
  type CustomerFormState,
  type DashboardType,
  type TemplateForm,
} from './customer-form.ts';

const text = (v: unknown, fallback = '') => (v === null || v === undefined ? fallback : String(v));
const list = (s: string) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
const oneOf = <T extends string>(options: readonly T[], value: string, fallback: T): T =>
  (options as readonly string[]).includes(value) ? (value as T) : fallback;

/** The stored customer as form state. */
export function formFromCustomer(c: CustomerDocument): CustomerFormState {
  return {
    customer_name: c.customer_name,
    customer_id: c.customer_id,
    entity: c.entity ?? '',
    billing_account_id: c.billing_account_id,
    billing_currency: oneOf<Currency>(CURRENCIES, c.billing_currency, DEFAULT_CURRENCY),
    billing_dashboard_type: oneOf<DashboardType>(DASHBOARD_TYPES, c.billing_dashboard_type, 'Standard'),
    billing_dashboard_set_discount: text(c.billing_dashboard_set_discount),
    tiers: c.billing_dashboard_tier_discount.map((t) => ({ threshold_spend: String(t.threshold_spend), percentage: String(t.percentage) })),
    support_request: c.support_request,
    billing_viewer: c.billing_viewer,
    gcp_service_account: c.gcp_service_account,
    service_account_email: text(c.service_account_email),
    inventory: c.inventory,
    system_health_dashboard: c.system_health_dashboard,
    grafana_external_link: text(c.grafana_external_link),
    documentation: c.documentation,
    drive_id: text(c.drive_id),
    workspace_license: c.workspace_license,
    domain_name: text(c.domain_name),
    anomaly_detection: c.anomaly_detection,
    minimum_anomaly_threshold: text(c.minimum_anomaly_threshold, '20'),
    minimum_value_toggled_anomaly: text(c.minimum_value_toggled_anomaly, '10'),
    billing_cost_basis: oneOf<CostBasis>(COST_BASES, c.billing_cost_basis, 'billed'),
    business_units: c.business_units.join(', '),
    products: c.products.join(', '),
    env: c.env.join(', '),
    owner_values: c.owner_values.join(', '),
    templates: c.project_provisioning.map(templateForm),
  };
}

/** What the api receives (CustomerCreate; the update sends the same); call only when `validateCustomerForm` found nothing. */
export function inputFromForm(f: CustomerFormState): CustomerCreate & { customer_id: string } {
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
    billing_cost_basis: f.billing_cost_basis,
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
  return {
    template_name: text(r.template_name),
    folder_name: text(r.folder_name),
    folder_number: text(r.folder_number),
    project_type: text(pt.project_type),
    default_admin: text(pt.default_admin),
    budget: text(pt.budget, '0'),
    owner_label: text(pt.owner_label),
    project_name: text(pt.project_name),
    bigquery_analysis: text(quota.bigquery_analysis, '0'),
    compute_engine_cpus: text(quota.compute_engine_cpus, '0'),
  };
}

/** The template as the api stores it (spec 000 §3 Project template). */
export function templateInput(tp: TemplateForm): ProjectTemplate {
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
