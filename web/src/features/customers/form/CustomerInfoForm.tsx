import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { Button, Checkbox, FormControl, Heading, IconButton, Select, TextInput, VisuallyHidden } from '@primer/react';
import { PlusIcon, TrashIcon } from '@primer/octicons-react';
import type { Entity } from '../../entities/entitiesApi.ts';
import type { CustomerInput } from '../customersApi.ts';
import {
  CURRENCIES,
  DASHBOARD_TYPES,
  EMPTY_TEMPLATE,
  FLAG_LABELS,
  deriveCustomerId,
  cleanBillingAccountIds,
  inputFromForm,
  stripDriveFolderPrefix,
  validateCustomerForm,
  withFlag,
  type CustomerFormErrors,
  type CustomerFormState,
  type TemplateField,
} from './customer-form.ts';
import { AdvancedSettings } from './AdvancedSettings.tsx';
import styles from '../../../common/forms.module.css';

export interface CustomerInfoFormProps {
  mode: 'new' | 'update';
  initial: CustomerFormState;
  entities: readonly Entity[];
  busy: boolean;
  onSubmit: (input: CustomerInput) => void;
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
                setForm((f) => ({ ...f, customer_name: name, customer_id: mode === 'new' ? deriveCustomerId(name) : f.customer_id }));
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
            <Select block value={form.billing_currency} onChange={(e) => set('billing_currency', e.target.value)}>
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
        <DashboardType form={form} set={set} setForm={setForm} errors={errors} />
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

type Setter = <K extends keyof CustomerFormState>(key: K, value: CustomerFormState[K]) => void;

function DashboardType({
  form,
  set,
  setForm,
  errors,
}: {
  form: CustomerFormState;
  set: Setter;
  setForm: (f: (prev: CustomerFormState) => CustomerFormState) => void;
  errors: CustomerFormErrors;
}) {
  const setTier = (i: number, key: 'threshold_spend' | 'percentage', value: string) =>
    setForm((f) => ({ ...f, tiers: f.tiers.map((t, j) => (j === i ? { ...t, [key]: value } : t)) }));
  return (
    <>
      <div className={styles.row}>
        <FormControl id="customer-billing_dashboard_type">
          <FormControl.Label>Dashboard type</FormControl.Label>
          <Select block value={form.billing_dashboard_type} onChange={(e) => set('billing_dashboard_type', e.target.value)}>
            {DASHBOARD_TYPES.map((t) => (
              <Select.Option key={t} value={t}>
                {t}
              </Select.Option>
            ))}
          </Select>
        </FormControl>
        {form.billing_dashboard_type === 'Set Discount' ? (
          <FormControl required id="customer-billing_dashboard_set_discount">
            <FormControl.Label>Discount (%)</FormControl.Label>
            <TextInput
              block
              inputMode="decimal"
              value={form.billing_dashboard_set_discount}
              onChange={(e) => set('billing_dashboard_set_discount', e.target.value)}
              validationStatus={errors.billing_dashboard_set_discount ? 'error' : undefined}
            />
            {errors.billing_dashboard_set_discount ? (
              <FormControl.Validation variant="error">{errors.billing_dashboard_set_discount}</FormControl.Validation>
            ) : null}
          </FormControl>
        ) : (
          <div />
        )}
      </div>
      {form.billing_dashboard_type === 'Tier Discount' ? (
        <div className={styles.panel}>
          <Heading as="h3" className={styles.panelTitle} id="tier-title">
            Tier Discount
          </Heading>
          <table className={styles.tiers} aria-labelledby="tier-title">
            <thead>
              <tr>
                <th scope="col">Threshold spend</th>
                <th scope="col">Percentage</th>
                <th scope="col">
                  <VisuallyHidden>Remove</VisuallyHidden>
                </th>
              </tr>
            </thead>
            <tbody>
              {form.tiers.map((t, i) => (
                <tr key={i}>
                  <td>
                    <FormControl id={`customer-tier-${i}-threshold_spend`}>
                      <FormControl.Label visuallyHidden>Threshold spend of tier {i + 1}</FormControl.Label>
                      <TextInput
                        block
                        inputMode="decimal"
                        value={t.threshold_spend}
                        onChange={(e) => setTier(i, 'threshold_spend', e.target.value)}
                        validationStatus={errors[`tier.${i}.threshold_spend`] ? 'error' : undefined}
                      />
                      {errors[`tier.${i}.threshold_spend`] ? (
                        <FormControl.Validation variant="error">{errors[`tier.${i}.threshold_spend`]}</FormControl.Validation>
                      ) : null}
                    </FormControl>
                  </td>
                  <td>
                    <FormControl id={`customer-tier-${i}-percentage`}>
                      <FormControl.Label visuallyHidden>Percentage of tier {i + 1}</FormControl.Label>
                      <TextInput
                        block
                        inputMode="decimal"
                        trailingVisual="%"
                        value={t.percentage}
                        onChange={(e) => setTier(i, 'percentage', e.target.value)}
                        validationStatus={errors[`tier.${i}.percentage`] ? 'error' : undefined}
                      />
                      {errors[`tier.${i}.percentage`] ? (
                        <FormControl.Validation variant="error">{errors[`tier.${i}.percentage`]}</FormControl.Validation>
                      ) : null}
                    </FormControl>
                  </td>
                  <td>
                    <IconButton
                      icon={TrashIcon}
                      variant="invisible"
                      aria-label={`Remove tier ${i + 1}`}
                      onClick={() => setForm((f) => ({ ...f, tiers: f.tiers.filter((_, j) => j !== i) }))}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {form.tiers.length === 0 ? (
            <p className={errors.tiers ? styles.error : styles.muted} id="customer-tiers" tabIndex={-1} role={errors.tiers ? "alert" : undefined}>
              {errors.tiers ?? 'No tiers yet'}
            </p>
          ) : null}
          <div>
            <Button
              size="small"
              leadingVisual={PlusIcon}
              onClick={() => setForm((f) => ({ ...f, tiers: [...f.tiers, { threshold_spend: '', percentage: '' }] }))}
            >
              Add tier
            </Button>
          </div>
        </div>
      ) : null}
    </>
  );
}

function Panel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className={styles.panel} aria-label={title}>
      <Heading as="h3" className={styles.panelTitle}>
        {title}
      </Heading>
      {children}
    </section>
  );
}

/** Side panels shown according to the features that are on (spec 001 §2.4). */
function SidePanels({
  form,
  set,
  errors,
  readOnlyServiceAccount,
}: {
  form: CustomerFormState;
  set: Setter;
  errors: CustomerFormErrors;
  readOnlyServiceAccount: boolean;
}) {
  return (
    <>
      {form.gcp_service_account ? (
        <Panel title="Service Account">
          <FormControl id="customer-service_account_email" required={!readOnlyServiceAccount}>
            <FormControl.Label>Service account e-mail</FormControl.Label>
            <TextInput
              block
              readOnly={readOnlyServiceAccount}
              value={form.service_account_email}
              onChange={(e) => set('service_account_email', e.target.value)}
              validationStatus={errors.service_account_email ? 'error' : undefined}
            />
            {errors.service_account_email ? <FormControl.Validation variant="error">{errors.service_account_email}</FormControl.Validation> : null}
          </FormControl>
        </Panel>
      ) : null}
      {form.system_health_dashboard ? (
        <Panel title="System Health">
          <FormControl id="customer-grafana_external_link">
            <FormControl.Label>Customized monitoring dashboard link</FormControl.Label>
            <TextInput block value={form.grafana_external_link} onChange={(e) => set('grafana_external_link', e.target.value)} />
            <FormControl.Caption>Leave blank to use the built-in dashboard</FormControl.Caption>
          </FormControl>
        </Panel>
      ) : null}
      {form.workspace_license ? (
        <Panel title="Workspace License">
          <FormControl id="customer-domain_name" required>
            <FormControl.Label>Workspace license domain identifier</FormControl.Label>
            <TextInput
              block
              value={form.domain_name}
              onChange={(e) => set('domain_name', e.target.value)}
              validationStatus={errors.domain_name ? 'error' : undefined}
            />
            {errors.domain_name ? <FormControl.Validation variant="error">{errors.domain_name}</FormControl.Validation> : null}
          </FormControl>
        </Panel>
      ) : null}
      {form.documentation ? (
        <Panel title="Documentation">
          <FormControl id="customer-drive_id">
            <FormControl.Label>Custom drive folder</FormControl.Label>
            <TextInput block value={form.drive_id} onChange={(e) => set('drive_id', stripDriveFolderPrefix(e.target.value))} />
            <FormControl.Caption>Folder id, or paste the folder link; leave blank to use the built-in folder</FormControl.Caption>
          </FormControl>
        </Panel>
      ) : null}
    </>
  );
}

/** Labels of a template's fields, in the order of spec 000 §3 (Project template). */
const TEMPLATE_FIELDS: { key: TemplateField; label: string; caption?: string; numeric?: boolean }[] = [
  { key: 'template_name', label: 'Template name' },
  { key: 'project_type', label: 'Project type' },
  { key: 'folder_name', label: 'Folder name' },
  { key: 'folder_number', label: 'Folder number' },
  { key: 'project_name', label: 'Project name', caption: 'Placeholders {bu}, {product} and {env} take the New Project choices' },
  { key: 'owner_label', label: 'Owner label', caption: 'Label key set to the chosen cost owner' },
  { key: 'default_admin', label: 'Default admin' },
  { key: 'budget', label: 'Budget', numeric: true },
  { key: 'bigquery_analysis', label: 'BigQuery analysis quota', numeric: true },
  { key: 'compute_engine_cpus', label: 'Compute Engine CPUs quota', numeric: true },
];

/** Project provisioning choices and templates (spec 000 §3), edited with the customer. */
function ProvisioningFields({
  form,
  set,
  setForm,
  errors,
}: {
  form: CustomerFormState;
  set: Setter;
  setForm: (f: (prev: CustomerFormState) => CustomerFormState) => void;
  errors: CustomerFormErrors;
}) {
  const listField = (key: 'business_units' | 'products' | 'env' | 'owner_values', label: string) => (
    <FormControl id={`customer-${key}`}>
      <FormControl.Label>{label}</FormControl.Label>
      <TextInput block value={form[key]} onChange={(e) => set(key, e.target.value)} />
    </FormControl>
  );
  const setTemplate = (i: number, key: TemplateField, value: string) =>
    setForm((f) => ({ ...f, templates: f.templates.map((tp, j) => (j === i ? { ...tp, [key]: value } : tp)) }));
  const templateErrors = Object.keys(errors).some((k) => k.startsWith('template.'));
  // Opened by the user or by an error in it; fixing the error must not fold it away under the cursor.
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (templateErrors) setOpen(true);
  }, [templateErrors]);
  return (
    <details className={styles.panel} open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Project Provisioning</summary>
      {/* A <details> lays out its content in its own box: the wrapper gives the fields the form's spacing. */}
      <div className={styles.main}>
      <p className={styles.muted}>Comma-separated choices offered on the New Project form.</p>
      <div className={styles.row}>
        {listField('business_units', 'Business Units')}
        {listField('products', 'Products')}
      </div>
      <div className={styles.row}>
        {listField('env', 'Environments')}
        {listField('owner_values', 'Cost Owners')}
      </div>
      <Heading as="h3" className={styles.panelTitle}>
        Project templates
      </Heading>
      {form.templates.length === 0 ? <p className={styles.muted}>No templates yet</p> : null}
      {form.templates.map((tp, i) => (
        <fieldset key={i} className={styles.checks} aria-label={`Template ${i + 1}`}>
          <legend className={styles.legend}>
            Template {i + 1}
            {tp.template_name.trim() ? `: ${tp.template_name.trim()}` : ''}
          </legend>
          {TEMPLATE_FIELDS.map(({ key, label, caption, numeric }) => {
            const error = errors[`template.${i}.${key}`];
            return (
              <FormControl key={key} id={`customer-template-${i}-${key}`} required={key === 'template_name' || numeric}>
                <FormControl.Label>{label}</FormControl.Label>
                <TextInput
                  block
                  inputMode={numeric ? 'decimal' : undefined}
                  value={tp[key]}
                  onChange={(e) => setTemplate(i, key, e.target.value)}
                  validationStatus={error ? 'error' : undefined}
                />
                {error ? <FormControl.Validation variant="error">{error}</FormControl.Validation> : null}
                {!error && caption ? <FormControl.Caption>{caption}</FormControl.Caption> : null}
              </FormControl>
            );
          })}
          <div>
            <Button
              size="small"
              variant="danger"
              leadingVisual={TrashIcon}
              onClick={() => setForm((f) => ({ ...f, templates: f.templates.filter((_, j) => j !== i) }))}
            >
              Remove template {i + 1}
            </Button>
          </div>
        </fieldset>
      ))}
      <div>
        <Button size="small" leadingVisual={PlusIcon} onClick={() => setForm((f) => ({ ...f, templates: [...f.templates, { ...EMPTY_TEMPLATE }] }))}>
          Add template
        </Button>
      </div>
      </div>
    </details>
  );
}
