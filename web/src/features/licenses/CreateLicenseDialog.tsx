import { useState } from 'react';
import { Checkbox, Dialog, FormControl, TextInput } from '@primer/react';
import { CREATE_LICENSE_DEFAULTS, LICENSE_MESSAGES, createLicenseErrors, type CreateField } from '@cc/shared/licenses/rules.ts';
import { serverDetail } from '../../common/api-error.ts';
import { useSnackbar } from '../../common/Snackbar.tsx';
import { useCreateLicenseMutation, type LicenseInput } from './licensesApi.ts';
import styles from './Licenses.module.css';

const LABELS: Record<CreateField, string> = { sku_id: 'SKU Id', threshold: 'Threshold', new_order: 'New Order' };
const initial = (): LicenseInput => ({
  sku_id: String(CREATE_LICENSE_DEFAULTS.sku_id),
  threshold: String(CREATE_LICENSE_DEFAULTS.threshold),
  auto_order: CREATE_LICENSE_DEFAULTS.auto_order,
  new_order: String(CREATE_LICENSE_DEFAULTS.new_order),
});

/** Create License (spec 001 §2.12, §5): sku_id, threshold, auto order, new order, with the spec's defaults. */
export function CreateLicenseDialog({ domain, onClose }: { domain: string; onClose: () => void }) {
  const { show } = useSnackbar();
  const [create, { isLoading }] = useCreateLicenseMutation();
  const [values, setValues] = useState<LicenseInput>(initial);
  const [submitted, setSubmitted] = useState(false);
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
      {(['sku_id', 'threshold'] as const).map((field) => (
        <FormControl key={field}>
          <FormControl.Label>{LABELS[field]}</FormControl.Label>
          <TextInput inputMode="numeric" value={values[field]} onChange={(e) => setValues({ ...values, [field]: e.target.value })} block />
          {errors[field] ? <FormControl.Validation variant="error">{errors[field]}</FormControl.Validation> : null}
        </FormControl>
      ))}
      <FormControl>
        <Checkbox checked={values.auto_order} onChange={(e) => setValues({ ...values, auto_order: e.target.checked, new_order: '1' })} />
        <FormControl.Label>Auto Order</FormControl.Label>
      </FormControl>
      <FormControl>
        <FormControl.Label>{LABELS.new_order}</FormControl.Label>
        <TextInput inputMode="numeric" value={values.new_order} onChange={(e) => setValues({ ...values, new_order: e.target.value })} block />
        {errors.new_order ? <FormControl.Validation variant="error">{errors.new_order}</FormControl.Validation> : null}
      </FormControl>
      </div>
    </Dialog>
  );
}
