import { useState, type FormEvent } from 'react';
import { Button, Checkbox, FormControl, Select, TextInput } from '@primer/react';
import type { Entity } from '@cc/shared/schemas/entities.ts';
import { COST_BASES, type CostBasis } from '@cc/shared/billing/cost-basis.ts';
import type { CustomerSave } from '../customersApi.ts';
import {
  COST_BASIS_FIELD_LABEL,
  CURRENCIES,
  FLAG_LABELS,
  costBasisText,
  cleanBillingAccountIds,
  customerIdFromName,
  withFlag,
  type Currency,
  type CustomerFormErrors,
  type CustomerFormState,
} from './customer-form.ts';
import { inputFromForm } from './customer-convert.ts';
import { validateCustomerForm } from './validate-customer.ts';
import { AdvancedSettings } from './AdvancedSettings.tsx';
import { DashboardTypeFields } from './DashboardTypeFields.tsx';
import { ProvisioningFields } from './ProvisioningFields.tsx';
import { SidePanels } from './SidePanels.tsx';
import styles from '../../../common/forms.module.css';

export interface CustomerInfoFormProps {
  mode: 'new' | 'update';
  initial: CustomerFormState;
  entities: readonly Entity[];
  busy: boolean;
  onSubmit: (input: CustomerSave) => void;
  onCancel: () => void;
}

/** The Customer Info tab (spec 001 §2.4, 000 §3, §5): every field, rule and side panel. */
export function CustomerInfoForm({ mode, initial, entities, busy, onSubmit, onCancel }: CustomerInfoFormProps) {
  const [form, setForm] = useState(initial);
  const [submitted, setSubmitted] = useState(false);
  const errors: CustomerFormErrors = submitted ? validateCustomerForm(form) : {};
  const set = <K extends keyof CustomerFormState>(key: K, value: CustomerFormState[K]) => setForm((f) => ({ ...f, [key]: value }));

  function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    const found = validateCustomerForm(form);
    const first = Object.keys(found)[0];
    if (first) {
      document.getElementById(`customer-${first.replace(/\./g, '-')}`)?.focus();
      return;
    }
    onSubmit(inputFromForm(form));
  }

  const field = (name: keyof CustomerFormErrors) => ({
    validationStatus: errors[name] ? ('error' as const) : undefined,
  });
  const message = (name: keyof CustomerFormErrors) =>
    errors[name] ? <FormControl.Validation variant="error">{errors[name]}</FormControl.Validation> : null;

  return (
    <form onSubmit={submit} noValidate aria-label="Customer Info" className={styles.columns}>
      <div className={styles.main}>
        <div className={styles.row}>
          <FormControl required id="customer-customer_name">
            <FormControl.Label>Name</FormControl.Label>
            <TextInput
              block
              value={form.customer_name}
              onChange={(e) => {
                const name = e.target.value;
                setForm((f) => ({ ...f, customer_name: name, customer_id: mode === 'new' ? customerIdFromName(name) : f.customer_id }));
              }}
              {...field('customer_name')}
            />
            {message('customer_name')}
          </FormControl>
          <FormControl id="customer-customer_id">
            <FormControl.Label>Id</FormControl.Label>
            <TextInput block readOnly value={form.customer_id} {...field('customer_id')} />
            {errors.customer_id ? message('customer_id') : <FormControl.Caption>Derived from the name</FormControl.Caption>}
          </FormControl>
        </div>
        <div className={styles.row}>
          <FormControl required id="customer-entity">
            <FormControl.Label>Entity</FormControl.Label>
            <Select block value={form.entity} onChange={(e) => set('entity', e.target.value)} {...field('entity')}>
              <Select.Option value="">Choose an entity</Select.Option>
              {entities.map((en) => (
                <Select.Option key={en.id} value={en.id}>
                  {en.name}
                </Select.Option>
              ))}
            </Select>
            {message('entity')}
          </FormControl>
          <FormControl id="customer-billing_currency">
            <FormControl.Label>Currency</FormControl.Label>
            <Select block value={form.billing_currency} onChange={(e) => set('billing_currency', e.target.value as Currency)}>
              {CURRENCIES.map((c) => (
                <Select.Option key={c} value={c}>
                  {c}
                </Select.Option>
              ))}
            </Select>
          </FormControl>
        </div>
        <FormControl required id="customer-billing_account_id">
          <FormControl.Label>Billing account Id</FormControl.Label>
          <TextInput
            block
            value={form.billing_account_id}
            onChange={(e) => set('billing_account_id', cleanBillingAccountIds(e.target.value))}
            {...field('billing_account_id')}
          />
          {errors.billing_account_id ? message('billing_account_id') : <FormControl.Caption>Comma-separated when several; the first is the default</FormControl.Caption>}
        </FormControl>
        <DashboardTypeFields form={form} set={set} setForm={setForm} errors={errors} />
        <fieldset className={styles.checks}>
          <legend className={styles.legend}>Features</legend>
          {FLAG_LABELS.map(({ name, label }) => {
            const needsServiceAccount = name === 'inventory' || name === 'system_health_dashboard';
            // The service account is set when the customer is created; afterwards it is shown, not changed.
            const readOnly = name === 'gcp_service_account' && mode === 'update' && initial.gcp_service_account;
            const disabled = readOnly || (needsServiceAccount && !form.gcp_service_account);
            return (
              <FormControl key={name} layout="horizontal" disabled={disabled} id={`customer-${name}`}>
                <Checkbox checked={form[name]} onChange={(e) => setForm((f) => withFlag(f, name, e.target.checked))} />
                <FormControl.Label>{label}</FormControl.Label>
              </FormControl>
            );
          })}
        </fieldset>
        {form.anomaly_detection ? (
          <div className={styles.row}>
            <FormControl id="customer-minimum_anomaly_threshold">
              <FormControl.Label>Minimum Threshold</FormControl.Label>
              <TextInput
                block
                inputMode="decimal"
                trailingVisual="%"
                value={form.minimum_anomaly_threshold}
                onChange={(e) => set('minimum_anomaly_threshold', e.target.value)}
                {...field('minimum_anomaly_threshold')}
              />
              {errors.minimum_anomaly_threshold ? message('minimum_anomaly_threshold') : <FormControl.Caption>Percentage increase</FormControl.Caption>}
            </FormControl>
            <FormControl id="customer-minimum_value_toggled_anomaly">
              <FormControl.Label>Minimum Require Change Amount</FormControl.Label>
              <TextInput
                block
                inputMode="decimal"
                value={form.minimum_value_toggled_anomaly}
                onChange={(e) => set('minimum_value_toggled_anomaly', e.target.value)}
                {...field('minimum_value_toggled_anomaly')}
              />
              {message('minimum_value_toggled_anomaly')}
            </FormControl>
          </div>
        ) : null}
        <FormControl id="customer-billing_cost_basis">
          <FormControl.Label>{COST_BASIS_FIELD_LABEL}</FormControl.Label>
          <Select block value={form.billing_cost_basis} onChange={(e) => set('billing_cost_basis', e.target.value as CostBasis)}>
            {COST_BASES.map((b) => (
              <Select.Option key={b} value={b}>
                {costBasisText(b)}
              </Select.Option>
            ))}
          </Select>
          <FormControl.Caption>Billed: what the invoice says. Amortised: prepaid commitments spread over the usage they cover.</FormControl.Caption>
        </FormControl>
        <ProvisioningFields form={form} set={set} setForm={setForm} errors={errors} />
        <div className={styles.buttons}>
          <Button type="submit" variant="primary" loading={busy}>
            {mode === 'new' ? 'Save' : 'Update'}
          </Button>
          <Button onClick={onCancel}>Cancel</Button>
        </div>
      </div>
      <div className={styles.side}>
        <SidePanels form={form} set={set} errors={errors} readOnlyServiceAccount={mode === 'update' && initial.gcp_service_account} />
        {mode === 'update' && initial.gcp_service_account ? <AdvancedSettings customerId={form.customer_id} /> : null}
      </div>
    </form>
  );
}
