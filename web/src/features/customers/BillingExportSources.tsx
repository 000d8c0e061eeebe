import { useState } from 'react';
import { Button, FormControl, Heading, Select, TextInput } from '@primer/react';
import type { ExportSourceBody, ExportSourceList, ExportSourceView } from '@cc/shared/schemas/billing-export-sources.ts';
import { api } from '../../app/api.ts';
import { serverDetail } from '../../common/api-error.ts';
import { useSnackbar } from '../../common/Snackbar.tsx';
import forms from '../../common/forms.module.css';
import styles from './Customers.module.css';

/**
 * Admin: where each billing account's AWS Data Export or Azure FOCUS export is read by the nightly job (README,
 * "AWS and Azure exports"). The secret is write-only: the field is empty, a stored one is kept unless replaced.
 */
const tag = (id: string) => ({ type: 'Customer' as const, id: `${id}/exports` });
const exportSourcesApi = api.injectEndpoints({
  endpoints: (build) => ({
    listExportSources: build.query<ExportSourceList, string>({
      query: (id) => `/v2/billing/export-sources/${encodeURIComponent(id)}`,
      providesTags: (_r, _e, id) => [tag(id)],
    }),
    saveExportSource: build.mutation<ExportSourceView, { customer: string; account: string; body: ExportSourceBody }>({
      query: ({ customer, account, body }) => ({ url: `/v2/billing/export-sources/${encodeURIComponent(customer)}/${encodeURIComponent(account)}`, method: 'PUT', body }),
      invalidatesTags: (_r, _e, { customer }) => [tag(customer)],
    }),
    removeExportSource: build.mutation<null, { customer: string; account: string }>({
      query: ({ customer, account }) => ({ url: `/v2/billing/export-sources/${encodeURIComponent(customer)}/${encodeURIComponent(account)}`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, { customer }) => [tag(customer)],
    }),
  }),
});

type Kind = ExportSourceBody['kind'];
const FIELDS: Record<Kind, { key: string; label: string }[]> = {
  'aws-data-exports': [
    { key: 'bucket', label: 'S3 bucket' },
    { key: 'prefix', label: 'S3 prefix' },
    { key: 'export_name', label: 'Export name' },
    { key: 'region', label: 'Region' },
    { key: 'role_arn', label: 'Role ARN to assume' },
  ],
  'azure-cost-exports': [
    { key: 'storage_account', label: 'Storage account' },
    { key: 'container', label: 'Container' },
    { key: 'directory', label: 'Directory' },
    { key: 'export_name', label: 'Export name' },
  ],
};
const SECRET_LABEL: Record<Kind, string> = {
  'aws-data-exports': 'Access key (ACCESS_KEY_ID:SECRET_ACCESS_KEY; empty: default credentials)',
  'azure-cost-exports': 'Connection string or SAS URL (empty: default credentials)',
};

function AccountExport({ customer, account, current }: { customer: string; account: string; current: ExportSourceView | undefined }) {
  const { show } = useSnackbar();
  const [kind, setKind] = useState<Kind | ''>(current?.kind ?? '');
  const [settings, setSettings] = useState<Record<string, string>>(current?.settings ?? {});
  const [secret, setSecret] = useState('');
  const [save, { isLoading: saving }] = exportSourcesApi.useSaveExportSourceMutation();
  const [remove, { isLoading: removing }] = exportSourcesApi.useRemoveExportSourceMutation();
  const submit = async () => {
    if (!kind) return;
    const fields = Object.fromEntries(FIELDS[kind].map((f) => [f.key, settings[f.key] ?? '']));
    const result = await save({ customer, account, body: { kind, settings: fields, ...(secret ? { secret } : {}) } });
    if ('error' in result) show({ message: serverDetail(result.error) ?? 'Error saving the export setting', variant: 'error' });
    else {
      setSecret('');
      show({ message: `Export setting of ${account} saved`, variant: 'success' });
    }
  };
  return (
    <fieldset aria-label={`Export of billing account ${account}`}>
      <legend>{account}</legend>
      <FormControl>
        <FormControl.Label>Source</FormControl.Label>
        <Select value={kind} onChange={(e) => setKind(e.target.value as Kind | '')}>
          <Select.Option value="">None (files or BigQuery)</Select.Option>
          <Select.Option value="aws-data-exports">AWS Data Exports (S3)</Select.Option>
          <Select.Option value="azure-cost-exports">Azure Cost Management export (Blob Storage)</Select.Option>
        </Select>
      </FormControl>
      {kind &&
        FIELDS[kind].map((f) => (
          <FormControl key={f.key}>
            <FormControl.Label>{f.label}</FormControl.Label>
            <TextInput value={settings[f.key] ?? ''} onChange={(e) => setSettings({ ...settings, [f.key]: e.target.value })} />
          </FormControl>
        ))}
      {kind && (
        <FormControl>
          <FormControl.Label>{SECRET_LABEL[kind]}</FormControl.Label>
          <TextInput type="password" autoComplete="off" value={secret} placeholder={current?.has_secret ? 'stored — leave empty to keep' : ''} onChange={(e) => setSecret(e.target.value)} />
        </FormControl>
      )}
      {current && <p>{current.last_error ? `Last attempt failed: ${current.last_error}` : current.last_delivery ? `Delivery loaded: ${current.last_delivery}` : 'Not read yet'}</p>}
      {kind && (
        <Button onClick={() => void submit()} disabled={saving}>
          Save export setting
        </Button>
      )}
      {current && (
        <Button variant="danger" disabled={removing} onClick={() => void remove({ customer, account }).then(() => setKind(''))}>
          Remove export setting
        </Button>
      )}
    </fieldset>
  );
}

export function BillingExportSources({ customerId, accounts }: { customerId: string; accounts: string[] }) {
  const { data } = exportSourcesApi.useListExportSourcesQuery(customerId);
  if (!data || accounts.length === 0) return null;
  return (
    // a card like the form's others (Provisioning, Advanced settings): its title at their level, not a page heading
    <section className={`${forms.panel} ${styles.exports}`} aria-label="AWS and Azure exports">
      <Heading as="h3" className={forms.panelTitle}>
        AWS and Azure exports
      </Heading>
      {accounts.map((a) => {
        const current = data.sources.find((s) => s.billing_account_id === a);
        return <AccountExport key={`${a}-${current?.kind ?? ''}`} customer={customerId} account={a} current={current} />;
      })}
    </section>
  );
}
