import { Button, FormControl, Heading, IconButton, Select, TextInput, VisuallyHidden } from '@primer/react';
import { PlusIcon, TrashIcon } from '@primer/octicons-react';
import { DASHBOARD_TYPES, type CustomerFormErrors, type CustomerFormState, type DashboardType, type FieldSetter, type FormUpdater } from './customer-form.ts';
import styles from '../../../common/forms.module.css';

/** Dashboard type, its Set Discount percentage or its Tier Discount rows (spec 001 §2.4, 000 §3). */
export function DashboardTypeFields({
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
  const setTier = (i: number, key: 'threshold_spend' | 'percentage', value: string) =>
    setForm((f) => ({ ...f, tiers: f.tiers.map((t, j) => (j === i ? { ...t, [key]: value } : t)) }));
  return (
    <>
      <div className={styles.row}>
        <FormControl id="customer-billing_dashboard_type">
          <FormControl.Label>Dashboard type</FormControl.Label>
          <Select block value={form.billing_dashboard_type} onChange={(e) => set('billing_dashboard_type', e.target.value as DashboardType)}>
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
