/** The alert form's values and rules (spec 001 §5: group by, label key, label value and quota required; quota numeric, minimum 0). */
import { MESSAGES } from '@cc/shared/constants.ts';
import type { AlertCreateBody, AlertGroupBy } from '@cc/shared/schemas/insights.ts';

export interface AlertFormValues {
  group_by: AlertGroupBy | '';
  label_key: string;
  label_value: string;
  quota: string;
}

export type AlertFormErrors = Partial<Record<keyof AlertFormValues, string>>;

export const EMPTY_ALERT_FORM: AlertFormValues = { group_by: '', label_key: '', label_value: '', quota: '' };

/** Group By choices as the form and table show them (spec 001 §2.8). */
export const GROUP_BY_LABELS: Record<AlertGroupBy, string> = {
  service: 'Total',
  project_label: 'Project Label',
  resource_label: 'Resource Label',
};

export const MUST_BE_NUMBER = 'must be a number';
export const MUST_NOT_BE_NEGATIVE = 'number must be 0 or greater';

const NUMBER_RE = /^\d+(\.\d+)?$/;

/** Total needs no labels: its label selects are disabled and blank. */
export const needsLabels = (groupBy: AlertGroupBy | ''): boolean => groupBy === 'project_label' || groupBy === 'resource_label';

export function validateAlert(v: AlertFormValues): AlertFormErrors {
  const errors: AlertFormErrors = {};
  if (!v.group_by) errors.group_by = MESSAGES.required;
  if (needsLabels(v.group_by)) {
    if (!v.label_key) errors.label_key = MESSAGES.required;
    if (!v.label_value) errors.label_value = MESSAGES.required;
  }
  const quota = v.quota.trim();
  if (!quota) errors.quota = MESSAGES.required;
  else if (/^-\d+(\.\d+)?$/.test(quota)) errors.quota = MUST_NOT_BE_NEGATIVE;
  else if (!NUMBER_RE.test(quota)) errors.quota = MUST_BE_NUMBER;
  return errors;
}

/** The POST body of a valid form. */
export function toAlertInput(v: AlertFormValues): AlertCreateBody {
  const labels = needsLabels(v.group_by);
  return {
    group_by: v.group_by as AlertGroupBy,
    label_key: labels ? v.label_key : '',
    label_value: labels ? v.label_value : '',
    quota: v.quota.trim(),
  };
}

/** A server 400 detail '<field>: <message>' as a field error, when it names a form field. */
export function fieldErrorFromDetail(detail: string | undefined): AlertFormErrors | null {
  const m = /^(group_by|label_key|label_value|quota): (.+)$/.exec(detail ?? '');
  return m ? { [m[1]]: m[2] } : null;
}
