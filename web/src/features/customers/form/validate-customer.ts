/** The customer form's rules (spec 001 §5, 000 §5), checked before anything is sent; the api checks them again. */
import { EMAIL_RE, MESSAGES } from '@cc/shared/constants.ts';
import { CUSTOMER_ID_TOO_SHORT, customerIdProblem } from '@cc/shared/customers/rules.ts';
import { TEMPLATE_NUMBER_FIELDS, cleanBillingAccountIds, type CustomerFormErrors, type CustomerFormState } from './customer-form.ts';

export { CUSTOMER_ID_TOO_SHORT };
export const NOT_A_NUMBER = 'Must be a number';
export const NO_TIERS = 'Add at least one tier';
export const PERCENT_RANGE = 'Must be between 0 and 100';
export const NOT_NEGATIVE = 'Must be 0 or greater';
export const EMAIL_INVALID = 'Email is not valid';
export const DUPLICATE_TEMPLATE = 'Template names must be unique';

const isNumber = (s: string) => s.trim() !== '' && Number.isFinite(Number(s.trim()));

/** Every rule of spec 001 §5 and 000 §5 for the customer form; empty when the form may be saved. */
export function validateCustomerForm(f: CustomerFormState): CustomerFormErrors {
  const e: CustomerFormErrors = {};
  if (!f.customer_name.trim()) e.customer_name = MESSAGES.required;
  if (!f.customer_id) e.customer_id = MESSAGES.required;
  else {
    // The id the form sends is checked by the api with this very rule (shared/src/customers/rules.ts).
    const problem = customerIdProblem(f.customer_id);
    if (problem) e.customer_id = problem;
  }
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
