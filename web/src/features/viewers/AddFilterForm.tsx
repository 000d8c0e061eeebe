import { useState, type FormEvent } from 'react';
import { Banner, Button, Checkbox, CheckboxGroup, ConfirmationDialog, FormControl, Heading, Select } from '@primer/react';
import { errorDetail } from '../../common/api-error.ts';
import { useSnackbar } from '../../common/Snackbar.tsx';
import { useGetBillingSettingsQuery } from '../billing/billingApi.ts';
import type { Viewer } from '@cc/shared/schemas/insights.ts';
import { useAddViewerFilterMutation } from './viewersApi.ts';
import styles from './ViewersPage.module.css';

/**
 * Adds a project-label filter (label key = label value) to one or more viewers (spec 001 §2.9).
 * Add stays disabled until users, label key and label value are all chosen (spec 001 §5); a viewer who
 * already has that exact filter is not offered (items already assigned are excluded from pick lists).
 */
export function AddFilterForm({ customerId, billingAccountId, viewers }: { customerId: string; billingAccountId: string; viewers: Viewer[] }) {
  const { show } = useSnackbar();
  const settings = useGetBillingSettingsQuery({ customer: customerId, billingAccountId });
  const [addFilter, { isLoading: adding }] = useAddViewerFilterMutation();
  const [users, setUsers] = useState<string[]>([]);
  const [labelKey, setLabelKey] = useState('');
  const [labelValue, setLabelValue] = useState('');
  const [confirming, setConfirming] = useState(false);

  const labels = settings.currentData?.project_labels ?? {};
  const hasFilter = (v: Viewer) => v.project_label.some((f) => f.label_key === labelKey && f.label_value === labelValue);
  const offered = viewers.filter((v) => !(labelKey && labelValue && hasFilter(v)));
  const chosen = users.filter((u) => offered.some((v) => v.user === u));
  const ready = chosen.length > 0 && labelKey !== '' && labelValue !== '';

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (ready) setConfirming(true);
  }

  async function onConfirm() {
    const result = await addFilter({ customer: customerId, filter: { users: chosen, label_key: labelKey, label_value: labelValue } });
    setConfirming(false);
    if ('error' in result) {
      show({ message: errorDetail(result.error) ?? 'Error adding filter', variant: 'error' });
      return;
    }
    setUsers([]);
    setLabelKey('');
    setLabelValue('');
    show({ message: 'Filter successfully added', variant: 'success' });
  }

  return (
    <section className={styles.card} aria-labelledby="viewer-filter-title">
      <Heading as="h2" id="viewer-filter-title" className={styles.title}>
        Add filter
      </Heading>
      {settings.error ? <Banner variant="warning" title="Project labels could not be loaded" description={errorDetail(settings.error) ?? ''} /> : null}
      <form className={styles.form} onSubmit={onSubmit} aria-labelledby="viewer-filter-title">
        <CheckboxGroup>
          <CheckboxGroup.Label>Users</CheckboxGroup.Label>
          {offered.length === 0 ? <CheckboxGroup.Caption>No viewer to add this filter to</CheckboxGroup.Caption> : null}
          {offered.map((v) => (
            <FormControl key={v.user}>
              <Checkbox
                value={v.user}
                checked={users.includes(v.user)}
                onChange={(e) => setUsers((prev) => (e.target.checked ? [...prev, v.user] : prev.filter((u) => u !== v.user)))}
              />
              <FormControl.Label>{v.user}</FormControl.Label>
            </FormControl>
          ))}
        </CheckboxGroup>
        <FormControl id="viewer-label-key">
          <FormControl.Label>Project Label Key</FormControl.Label>
          <Select
            block
            value={labelKey}
            placeholder={settings.isFetching && !settings.currentData ? 'Loading…' : 'Select'}
            onChange={(e) => {
              setLabelKey(e.target.value);
              setLabelValue('');
            }}
          >
            {Object.keys(labels)
              .sort()
              .map((key) => (
                <Select.Option key={key} value={key}>
                  {key}
                </Select.Option>
              ))}
          </Select>
        </FormControl>
        <FormControl id="viewer-label-value" disabled={!labelKey}>
          <FormControl.Label>Label Value</FormControl.Label>
          <Select block value={labelValue} placeholder="Select" onChange={(e) => setLabelValue(e.target.value)}>
            {(labels[labelKey] ?? []).map((value) => (
              <Select.Option key={value} value={value}>
                {value}
              </Select.Option>
            ))}
          </Select>
        </FormControl>
        <div className={styles.buttons}>
          <Button type="submit" variant="primary" disabled={!ready}>
            Add
          </Button>
        </div>
      </form>
      {confirming ? (
        <ConfirmationDialog
          title="Please confirm"
          confirmButtonContent="Submit"
          cancelButtonContent="Cancel"
          confirmButtonType="primary"
          confirmButtonLoading={adding}
          onClose={(gesture) => (gesture === 'confirm' ? void onConfirm() : setConfirming(false))}
        >
          Add the filter {labelKey}: {labelValue} to {chosen.join(', ')}?
        </ConfirmationDialog>
      ) : null}
    </section>
  );
}
