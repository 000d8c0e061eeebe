import { COST_BASIS_FIELD_LABEL, FLAG_LABELS, costBasisText, type CustomerFormState } from './form/customer-form.ts';

const yesNo = (on: boolean) => (on ? 'Yes' : 'No');
const none = (v: string) => v || '—';

/**
 * The Customer Settings page's label/value rows (spec 001 §2.5), in the edit form's words. `entityName` is the
 * entity's name (customers cannot read the entity list; the page asks the customer's own entity route).
 */
export function customerSettingsRows(f: CustomerFormState, entityName: string | null | undefined): [string, string][] {
  const rows: [string, string][] = [
    ['Name', f.customer_name],
    ['Id', f.customer_id],
    ['Entity', f.entity ? (entityName ?? '…') : 'No Entity'],
    ['Billing account Id', f.billing_account_id || '—'],
    ['Currency', f.billing_currency],
    ['Dashboard type', f.billing_dashboard_type],
  ];
  if (f.billing_dashboard_type === 'Set Discount') rows.push(['Discount (%)', f.billing_dashboard_set_discount]);
  for (const { name, label } of FLAG_LABELS) rows.push([label, yesNo(f[name])]);
  if (f.anomaly_detection) {
    rows.push(['Minimum Threshold', `${f.minimum_anomaly_threshold} %`]);
    rows.push(['Minimum Require Change Amount', f.minimum_value_toggled_anomaly]);
  }
  // Shown whatever anomaly_detection says: alerts are judged on it too.
  rows.push([COST_BASIS_FIELD_LABEL, costBasisText(f.billing_cost_basis)]);
  if (f.gcp_service_account) rows.push(['Service account e-mail', f.service_account_email || '—']);
  if (f.system_health_dashboard) rows.push(['Customized monitoring dashboard link', f.grafana_external_link || 'Built-in dashboard']);
  if (f.workspace_license) rows.push(['Workspace license domain identifier', f.domain_name || '—']);
  if (f.documentation) rows.push(['Custom drive folder', f.drive_id || 'Built-in folder']);
  // Project provisioning choices (spec 000 §3), as offered on the New Project form.
  rows.push(['Business Units', none(f.business_units)]);
  rows.push(['Products', none(f.products)]);
  rows.push(['Environments', none(f.env)]);
  rows.push(['Cost Owners', none(f.owner_values)]);
  rows.push(['Project templates', none(f.templates.map((tp) => tp.template_name).join(', '))]);
  return rows;
}
