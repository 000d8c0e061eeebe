import { useState } from 'react';
import { Checkbox, Dialog, FormControl, TextInput } from '@primer/react';
import { CREATE_LICENSE_DEFAULTS, LICENSE_MESSAGES, createLicenseErrors, type CreateField } from '@cc/shared/licenses/rules.ts';
import { serverDetail } from '../../common/api-error.ts';
import { useSnackbar } from '../../common/Snackbar.tsx';
import { useCreateLicenseMutation, useGetSubscriptionsQuery, type LicenseInput } from './licensesApi.ts';
import { SkuField, firstFree } from './SkuField.tsx';
import styles from './Licenses.module.css';

const LABELS: Record<CreateField, string> = { sku_id: 'SKU Id', threshold: 'Threshold', new_order: 'New Order' };
type Fields = Omit<LicenseInput, 'sku_id'>;
const initial = (): Fields => ({
  threshold: String(CREATE_LICENSE_DEFAULTS.threshold),
  auto_order: CREATE_LICENSE_DEFAULTS.auto_order,
  new_order: String(CREATE_LICENSE_DEFAULTS.new_order),
});

/**
 * Create License (spec 001 §2.12, §5): the SKU chosen among the domain's subscriptions (the first without a license
 * preselected), threshold, auto order, new order, with defaults that pass the spec's rules.
 */
export function CreateLicenseDialog({ domain, onClose }: { domain: string; onClose: () => void }) {
  const { show } = useSnackbar();
  const [create, { isLoading }] = useCreateLicenseMutation();
  const subscriptions = useGetSubscriptionsQuery(domain);
  // null until the user picks: then the preselected subscription follows the list as it arrives.
  const [skuId, setSkuId] = useState<string | null>(null);
  const [fields, setFields] = useState<Fields>(initial);
  const [submitted, setSubmitted] = useState(false);
  const values: LicenseInput = { ...fields, sku_id: skuId ?? firstFree(subscriptions.data)?.sku_id ?? String(CREATE_LICENSE_DEFAULTS.sku_id) };
  const errors = submitted ? createLicenseErrors(values) : {};

  const submit = async () => {
    setSubmitted(true);
    if (Object.keys(createLicenseErrors(values)).length > 0) return;
    try {
      await create({ domain, license: values }).unwrap();
      show({ message: LICENSE_MESSAGES.created, variant: 'success' });
      onClose();
    } catch (err) {
      const detail = serverDetail(err);
      show({ message: detail ? `${LICENSE_MESSAGES.createFailed}: ${detail}` : LICENSE_MESSAGES.createFailed, variant: 'error' });
    }
  };

  return (
    <Dialog
      title="Create License"
      onClose={onClose}
      footerButtons={[
        { content: 'Cancel', onClick: onClose },
        { content: 'Create', buttonType: 'primary', onClick: () => void submit(), disabled: isLoading, loading: isLoading },
      ]}
    >
      <div className={styles.fields}>
        <SkuField label={LABELS.sku_id} value={values.sku_id} onChange={setSkuId} error={errors.sku_id} subscriptions={subscriptions} />
        <FormControl>
          <FormControl.Label>{LABELS.threshold}</FormControl.Label>
          <TextInput inputMode="numeric" value={fields.threshold} onChange={(e) => setFields({ ...fields, threshold: e.target.value })} block />
          {errors.threshold ? <FormControl.Validation variant="error">{errors.threshold}</FormControl.Validation> : null}
        </FormControl>
        <FormControl>
          <Checkbox checked={fields.auto_order} onChange={(e) => setFields({ ...fields, auto_order: e.target.checked, new_order: '1' })} />
          <FormControl.Label>Auto Order</FormControl.Label>
        </FormControl>
        <FormControl>
          <FormControl.Label>{LABELS.new_order}</FormControl.Label>
          <TextInput inputMode="numeric" value={fields.new_order} onChange={(e) => setFields({ ...fields, new_order: e.target.value })} block />
          {errors.new_order ? <FormControl.Validation variant="error">{errors.new_order}</FormControl.Validation> : null}
        </FormControl>
      </div>
    </Dialog>
  );
}
