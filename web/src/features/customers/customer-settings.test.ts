import t from 'tap';
import { EMPTY_CUSTOMER_FORM, type CustomerFormState } from './form/customer-form.ts';
import { customerSettingsRows } from './customer-settings.ts';

const form: CustomerFormState = { ...EMPTY_CUSTOMER_FORM, customer_name: 'Zeta Dynamics', customer_id: 'zetadynamics', billing_account_id: 'X' };
const value = (rows: [string, string][], label: string) => rows.find(([l]) => l === label)?.[1];

t.test('Customer Settings shows the cost basis alerts and anomalies judge, as the edit form words it', async (t) => {
  t.equal(value(customerSettingsRows({ ...form, billing_cost_basis: 'amortised' }, undefined), 'Alerts and anomalies judge'), 'Amortised cost');
  t.equal(value(customerSettingsRows({ ...form, billing_cost_basis: 'billed' }, undefined), 'Alerts and anomalies judge'), 'Billed cost');
  // alerts use it too: shown with anomaly detection off
  const off = customerSettingsRows({ ...form, anomaly_detection: false, billing_cost_basis: 'amortised' }, undefined);
  t.equal(value(off, 'Alerts and anomalies judge'), 'Amortised cost');
  t.notOk(value(off, 'Minimum Threshold'));
  const on = customerSettingsRows({ ...form, anomaly_detection: true, minimum_anomaly_threshold: '20' }, undefined);
  const labels = on.map(([l]) => l);
  t.equal(labels.indexOf('Alerts and anomalies judge'), labels.indexOf('Minimum Require Change Amount') + 1, 'after the anomaly thresholds');
});

t.test('the other rows keep their words', async (t) => {
  t.equal(value(customerSettingsRows({ ...form, entity: 'e1' }, 'Zeta Holdings'), 'Entity'), 'Zeta Holdings');
  t.equal(value(customerSettingsRows({ ...form, entity: 'e1' }, undefined), 'Entity'), '…', 'while the entity loads');
  t.equal(value(customerSettingsRows({ ...form, entity: '' }, undefined), 'Entity'), 'No Entity');
  t.equal(value(customerSettingsRows(form, undefined), 'Business Units'), '—');
});
