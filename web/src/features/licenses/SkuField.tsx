import { FormControl, Select, TextInput } from '@primer/react';
import type { WorkspaceSubscription } from '@cc/shared/schemas/licenses.ts';
import { errorDetail } from '../../common/api-error.ts';

interface Props {
  label: string;
  value: string;
  onChange: (skuId: string) => void;
  error: string | undefined;
  subscriptions: { data?: WorkspaceSubscription[]; isLoading: boolean; error?: unknown };
}

const seats = (s: WorkspaceSubscription) => `${s.volume_available} of ${s.volume_total} seats available`;

/** The first subscription a license can still be created for: the dialog's preselected SKU. */
export function firstFree(subscriptions: WorkspaceSubscription[] | undefined): WorkspaceSubscription | undefined {
  return subscriptions?.find((s) => !s.licensed);
}

/**
 * Create License's SKU: a choice of the domain's Workspace subscriptions (name and id), those with a license already
 * shown but not selectable. When Google cannot list them the id is typed, as the spec's form has it.
 */
export function SkuField({ label, value, onChange, error, subscriptions }: Props) {
  const { data, isLoading } = subscriptions;
  const validation = error ? <FormControl.Validation variant="error">{error}</FormControl.Validation> : null;
  if (subscriptions.error) {
    return (
      <FormControl>
        <FormControl.Label>{label}</FormControl.Label>
        <TextInput inputMode="numeric" value={value} onChange={(e) => onChange(e.target.value)} block />
        <FormControl.Caption>
          The subscriptions could not be listed{errorDetail(subscriptions.error) ? ` (${errorDetail(subscriptions.error)})` : ''}: type the SKU id.
        </FormControl.Caption>
        {validation}
      </FormControl>
    );
  }
  const chosen = data?.find((s) => s.sku_id === value);
  return (
    <FormControl disabled={isLoading || data?.length === 0}>
      <FormControl.Label>{label}</FormControl.Label>
      <Select block value={chosen ? value : ''} onChange={(e) => onChange(e.target.value)} placeholder={isLoading ? 'Loading subscriptions…' : 'Select a subscription'}>
        {(data ?? []).map((s) => (
          <Select.Option key={s.sku_id} value={s.sku_id} disabled={s.licensed}>
            {`${s.sku_name} (${s.sku_id})${s.licensed ? ' · has a license' : ''}`}
          </Select.Option>
        ))}
      </Select>
      {chosen ? <FormControl.Caption>{seats(chosen)}</FormControl.Caption> : null}
      {data?.length === 0 ? <FormControl.Caption>The domain has no Workspace subscription to license.</FormControl.Caption> : null}
      {data?.length && !firstFree(data) ? <FormControl.Caption>Every subscription of the domain has a license already.</FormControl.Caption> : null}
      {validation}
    </FormControl>
  );
}
