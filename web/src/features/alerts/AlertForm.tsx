import { useState, type FormEvent } from 'react';
import { Banner, Button, FormControl, Heading, Select, TextInput } from '@primer/react';
import { errorDetail } from '../../common/api-error.ts';
import { useSnackbar } from '../../common/Snackbar.tsx';
import type { CustomerDocument } from '@cc/shared/schemas/customers.ts';
import type { BillingSettings } from '@cc/shared/schemas/billing.ts';
import type { AlertGroupBy } from '@cc/shared/schemas/insights.ts';
import { useCreateAlertMutation } from './alertsApi.ts';
import { useGetBillingSettingsQuery } from '../billing/billingApi.ts';
import {
  EMPTY_ALERT_FORM,
  GROUP_BY_LABELS,
  fieldErrorFromDetail,
  needsLabels,
  toAlertInput,
  validateAlert,
  type AlertFormErrors,
  type AlertFormValues,
} from './alert-form.ts';
import styles from './AlertForm.module.css';

const FORM_TITLE = 'Alert when Month-To-Date spend exceeds';
const FIELD_IDS: Record<keyof AlertFormValues, string> = {
  group_by: 'alert-group-by',
  label_key: 'alert-label-key',
  label_value: 'alert-label-value',
  quota: 'alert-quota',
};

/** label key -> values for the chosen grouping. */
function labelsFor(settings: BillingSettings | undefined, groupBy: AlertGroupBy | ''): Record<string, string[]> {
  if (!settings) return {};
  if (groupBy === 'project_label') return settings.project_labels;
  if (groupBy === 'resource_label') return settings.resource_labels;
  return {};
}

/**
 * The form 'Alert when Month-To-Date spend exceeds' (spec 001 §2.8): Group By (Total, Project Label,
 * Resource Label), label key and value (disabled and blank for Total), quota; Save and Reset.
 */
export function AlertForm({ customer, billingAccountId }: { customer: CustomerDocument; billingAccountId: string }) {
  const { show } = useSnackbar();
  const [createAlert, { isLoading: saving }] = useCreateAlertMutation();
  const settings = useGetBillingSettingsQuery({ customer: customer.customer_id, billingAccountId });
  const [values, setValues] = useState<AlertFormValues>(EMPTY_ALERT_FORM);
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<AlertFormErrors>({});

  // Messages appear after the first Save, then follow the typing.
  const errors: AlertFormErrors = submitted ? { ...validateAlert(values), ...serverErrors } : {};
  const labels = labelsFor(settings.currentData, values.group_by);
  const withLabels = needsLabels(values.group_by);
  const currency = settings.currentData?.currency ?? customer.billing_currency;

  const change = (patch: Partial<AlertFormValues>) => {
    setServerErrors({});
    setValues((v) => ({ ...v, ...patch }));
  };

  function reset() {
    setValues(EMPTY_ALERT_FORM);
    setSubmitted(false);
    setServerErrors({});
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    setServerErrors({});
    const found = validateAlert(values);
    const first = (Object.keys(FIELD_IDS) as (keyof AlertFormValues)[]).find((f) => found[f]);
    if (first) {
      document.getElementById(FIELD_IDS[first])?.focus();
      return;
    }
    const result = await createAlert({ customer: customer.customer_id, alert: toAlertInput(values) });
    if ('error' in result) {
      const fieldErrors = fieldErrorFromDetail(errorDetail(result.error));
      if (fieldErrors) setServerErrors(fieldErrors);
      show({ message: 'Error saving Alert', variant: 'error' });
      return;
    }
    reset();
    show({ message: 'Alert successfully saved', variant: 'success' });
  }

  return (
    <section className={styles.card} aria-labelledby="alert-form-title">
      <Heading as="h2" id="alert-form-title" className={styles.title}>
        {FORM_TITLE}
      </Heading>
      {settings.error ? (
        <Banner variant="warning" title="Label keys could not be loaded" description={errorDetail(settings.error) ?? ''} />
      ) : null}
      <form
        className={styles.form}
        onSubmit={onSubmit}
        onReset={(event) => {
          // The browser's own reset would run after React's and re-select the first enabled option (Total) in Group By,
          // showing a choice the form does not hold: the state alone resets the controlled fields.
          event.preventDefault();
          reset();
        }}
        noValidate
        aria-labelledby="alert-form-title"
      >
        <FormControl required id={FIELD_IDS.group_by}>
          <FormControl.Label>Group By</FormControl.Label>
          <Select
            block
            value={values.group_by}
            placeholder="Select"
            validationStatus={errors.group_by ? 'error' : undefined}
            onChange={(e) => change({ group_by: e.target.value as AlertGroupBy | '', label_key: '', label_value: '' })}
          >
            {(Object.keys(GROUP_BY_LABELS) as AlertGroupBy[]).map((g) => (
              <Select.Option key={g} value={g}>
                {GROUP_BY_LABELS[g]}
              </Select.Option>
            ))}
          </Select>
          {errors.group_by ? <FormControl.Validation variant="error">{errors.group_by}</FormControl.Validation> : null}
        </FormControl>
        <FormControl required={withLabels} disabled={!withLabels} id={FIELD_IDS.label_key}>
          <FormControl.Label>Label Key</FormControl.Label>
          <Select
            block
            value={withLabels ? values.label_key : ''}
            placeholder={withLabels ? (settings.isFetching && !settings.currentData ? 'Loading…' : 'Select') : ' '}
            validationStatus={errors.label_key ? 'error' : undefined}
            onChange={(e) => change({ label_key: e.target.value, label_value: '' })}
          >
            {Object.keys(labels)
              .sort()
              .map((key) => {
                const empty = labels[key].length === 0;
                return (
                  <Select.Option key={key} value={key} disabled={empty}>
                    {empty ? `${key} (not applicable)` : key}
                  </Select.Option>
                );
              })}
          </Select>
          {errors.label_key ? <FormControl.Validation variant="error">{errors.label_key}</FormControl.Validation> : null}
        </FormControl>
        <FormControl required={withLabels} disabled={!withLabels || !values.label_key} id={FIELD_IDS.label_value}>
          <FormControl.Label>Label Value</FormControl.Label>
          <Select
            block
            value={withLabels ? values.label_value : ''}
            placeholder={withLabels ? 'Select' : ' '}
            validationStatus={errors.label_value ? 'error' : undefined}
            onChange={(e) => change({ label_value: e.target.value })}
          >
            {(labels[values.label_key] ?? []).map((value) => (
              <Select.Option key={value} value={value}>
                {value}
              </Select.Option>
            ))}
          </Select>
          {errors.label_value ? <FormControl.Validation variant="error">{errors.label_value}</FormControl.Validation> : null}
        </FormControl>
        <FormControl required id={FIELD_IDS.quota}>
          <FormControl.Label>Quota</FormControl.Label>
          <TextInput
            block
            inputMode="decimal"
            autoComplete="off"
            value={values.quota}
            trailingVisual={currency}
            validationStatus={errors.quota ? 'error' : undefined}
            onChange={(e) => change({ quota: e.target.value })}
          />
          {errors.quota ? <FormControl.Validation variant="error">{errors.quota}</FormControl.Validation> : null}
        </FormControl>
        <div className={styles.buttons}>
          <Button type="submit" variant="primary" loading={saving}>
            Save
          </Button>
          <Button type="reset">Reset</Button>
        </div>
      </form>
    </section>
  );
}
