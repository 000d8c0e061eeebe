import type { ReactNode } from 'react';
import { FormControl, Heading, TextInput } from '@primer/react';
import { stripDriveFolderPrefix, type CustomerFormErrors, type CustomerFormState, type FieldSetter } from './customer-form.ts';
import styles from '../../../common/forms.module.css';

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
export function SidePanels({
  form,
  set,
  errors,
  readOnlyServiceAccount,
}: {
  form: CustomerFormState;
  set: FieldSetter;
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
