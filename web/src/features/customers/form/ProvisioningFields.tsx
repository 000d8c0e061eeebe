import { useEffect, useState } from 'react';
import { Button, FormControl, Heading, TextInput } from '@primer/react';
import { PlusIcon, TrashIcon } from '@primer/octicons-react';
import { EMPTY_TEMPLATE, type CustomerFormErrors, type CustomerFormState, type FieldSetter, type FormUpdater, type TemplateField } from './customer-form.ts';
import styles from '../../../common/forms.module.css';

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
export function ProvisioningFields({
  form,
  set,
  setForm,
  errors,
}: {
  form: CustomerFormState;
  set: FieldSetter;
  setForm: FormUpdater;
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
