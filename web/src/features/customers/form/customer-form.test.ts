import t from 'tap';
import { CUSTOMER_ID_CHARACTERS, customerIdFrom } from '@cc/shared/customers/rules.ts';
import {
  EMPTY_CUSTOMER_FORM,
  EMPTY_TEMPLATE,
  cleanBillingAccountIds,
  customerIdFromName,
  stripDriveFolderPrefix,
  withFlag,
  type CustomerFormState,
} from './customer-form.ts';
import { inputFromForm, templateForm } from './customer-convert.ts';
import { CUSTOMER_ID_TOO_SHORT, DUPLICATE_TEMPLATE, NOT_A_NUMBER, NO_TIERS, PERCENT_RANGE, validateCustomerForm } from './validate-customer.ts';

const valid: CustomerFormState = {
  ...EMPTY_CUSTOMER_FORM,
  customer_name: 'Zeta Dynamics',
  customer_id: 'zetadynamics',
  entity: 'zeta-holdings',
  billing_account_id: '0ZE7A1-B2C3D4-E5F6A7',
};

t.test('Customer Id is derived from the name by the server rule: lower-cased, spaces removed', async (t) => {
  t.equal(customerIdFromName('Zeta Dynamics'), 'zetadynamics');
  t.equal(customerIdFromName('  Acme-Corp Europe '), 'acme-corpeurope');
  t.equal(customerIdFromName('  Acme-Corp Europe '), customerIdFrom('  Acme-Corp Europe '), 'the id the api would derive');
  // Accents and digits are not dropped: the id keeps them and the form says what the api would answer.
  t.equal(customerIdFromName('Café Über 42'), 'caféüber42');
  t.equal(validateCustomerForm({ ...valid, customer_id: customerIdFromName('Café Über 42') }).customer_id, CUSTOMER_ID_CHARACTERS);
  t.throws(() => customerIdFrom(customerIdFromName('Café Über 42')), { message: CUSTOMER_ID_CHARACTERS });
});

t.test('required fields and the id rule', async (t) => {
  t.same(validateCustomerForm(valid), {});
  t.same(validateCustomerForm(EMPTY_CUSTOMER_FORM), {
    customer_name: 'This field is required',
    customer_id: 'This field is required',
    entity: 'This field is required',
    billing_account_id: 'This field is required',
  });
  t.equal(validateCustomerForm({ ...valid, customer_id: 'zeta' }).customer_id, CUSTOMER_ID_TOO_SHORT);
  t.equal(CUSTOMER_ID_TOO_SHORT, 'Must have at least 6 characters');
  t.equal(validateCustomerForm({ ...valid, billing_account_id: ' , ' }).billing_account_id, 'This field is required');
});

t.test('billing account ids lose their spaces; the first stays the default', async (t) => {
  t.equal(cleanBillingAccountIds(' 01A2B3-C4D5E6 , 01FFEE-DDCCBB '), '01A2B3-C4D5E6,01FFEE-DDCCBB');
  t.equal(inputFromForm({ ...valid, billing_account_id: 'A, B,,C' }).billing_account_id, 'A,B,C');
});

t.test('dashboard types: Set Discount needs a percentage, Tier Discount numeric rows', async (t) => {
  t.equal(validateCustomerForm({ ...valid, billing_dashboard_type: 'Set Discount' }).billing_dashboard_set_discount, 'This field is required');
  t.equal(validateCustomerForm({ ...valid, billing_dashboard_type: 'Set Discount', billing_dashboard_set_discount: 'five' }).billing_dashboard_set_discount, NOT_A_NUMBER);
  t.equal(validateCustomerForm({ ...valid, billing_dashboard_type: 'Set Discount', billing_dashboard_set_discount: '120' }).billing_dashboard_set_discount, PERCENT_RANGE);
  t.equal(validateCustomerForm({ ...valid, billing_dashboard_type: 'Tier Discount' }).tiers, NO_TIERS);
  const tiers: CustomerFormState = { ...valid, billing_dashboard_type: 'Tier Discount', tiers: [{ threshold_spend: '0', percentage: '2' }, { threshold_spend: 'x', percentage: '5' }] };
  t.same(validateCustomerForm(tiers), { 'tier.1.threshold_spend': NOT_A_NUMBER });
  const ok = { ...tiers, tiers: [{ threshold_spend: '0', percentage: '2' }, { threshold_spend: '10000', percentage: '5.5' }] };
  t.same(validateCustomerForm(ok), {});
  t.same(inputFromForm(ok).billing_dashboard_tier_discount, [
    { threshold_spend: 0, percentage: 2 },
    { threshold_spend: 10000, percentage: 5.5 },
  ]);
  t.equal(inputFromForm(ok).billing_dashboard_set_discount, null, 'the other type’s value is not sent');
  t.same(inputFromForm({ ...ok, billing_dashboard_type: 'Standard' }).billing_dashboard_tier_discount, []);
});

t.test('Inventory and System health only with a service account; unticking clears them', async (t) => {
  let f = withFlag(valid, 'gcp_service_account', true);
  f = withFlag(withFlag(f, 'inventory', true), 'system_health_dashboard', true);
  t.ok(f.inventory && f.system_health_dashboard);
  f = withFlag(f, 'gcp_service_account', false);
  t.notOk(f.inventory);
  t.notOk(f.system_health_dashboard);
  const sneaky = inputFromForm({ ...valid, inventory: true, system_health_dashboard: true });
  t.notOk(sneaky.inventory, 'never sent without the service account');
  t.equal(validateCustomerForm({ ...valid, gcp_service_account: true }).service_account_email, 'This field is required');
  t.equal(validateCustomerForm({ ...valid, gcp_service_account: true, service_account_email: 'nope' }).service_account_email, 'Email is not valid');
});

t.test('anomaly thresholds are numbers when anomaly detection is on', async (t) => {
  t.same(validateCustomerForm({ ...valid, anomaly_detection: true }), {}, 'defaults 20 and 10');
  t.equal(validateCustomerForm({ ...valid, anomaly_detection: true, minimum_anomaly_threshold: 'abc' }).minimum_anomaly_threshold, NOT_A_NUMBER);
  t.same(validateCustomerForm({ ...valid, anomaly_detection: false, minimum_anomaly_threshold: 'abc' }), {});
});

t.test('a pasted drive folder link keeps only the folder id', async (t) => {
  t.equal(stripDriveFolderPrefix('https://drive.google.com/drive/folders/1AbC_d-E?usp=sharing'), '1AbC_d-E');
  t.equal(stripDriveFolderPrefix('https://drive.google.com/drive/u/0/folders/1XyZ'), '1XyZ');
  t.equal(stripDriveFolderPrefix('1AbC'), '1AbC');
  t.equal(stripDriveFolderPrefix(''), '');
});

t.test('project provisioning: comma lists and a JSON template list', async (t) => {
  const input = inputFromForm({ ...valid, business_units: 'Retail, Finance,', env: 'dev,prod' });
  t.same(input.business_units, ['Retail', 'Finance']);
  t.same(input.env, ['dev', 'prod']);
});

t.test('project templates: every field of spec 000 §3, numbers checked, names required and unique', async (t) => {
  const stored = {
    template_name: 'Standard',
    folder_name: 'Retail',
    folder_number: '123456',
    project_template: {
      project_type: 'service',
      default_admin: 'ops@zeta.example',
      budget: 500,
      owner_label: 'owner',
      project_name: '{bu}-{product}-{env}',
      quota: { bigquery_analysis: 10, compute_engine_cpus: 8 },
    },
  };
  const form = { ...valid, templates: [templateForm(stored)] };
  t.same(form.templates[0], {
    template_name: 'Standard',
    folder_name: 'Retail',
    folder_number: '123456',
    project_type: 'service',
    default_admin: 'ops@zeta.example',
    budget: '500',
    owner_label: 'owner',
    project_name: '{bu}-{product}-{env}',
    bigquery_analysis: '10',
    compute_engine_cpus: '8',
  });
  t.same(validateCustomerForm(form), {});
  t.same(inputFromForm(form).project_provisioning, [stored], 'the form gives back the stored shape');

  const blank = { ...EMPTY_TEMPLATE, budget: 'lots', compute_engine_cpus: '-1', bigquery_analysis: '' };
  t.same(validateCustomerForm({ ...valid, templates: [blank] }), {
    'template.0.template_name': 'This field is required',
    'template.0.budget': NOT_A_NUMBER,
    'template.0.bigquery_analysis': 'This field is required',
    'template.0.compute_engine_cpus': 'Must be 0 or greater',
  });
  const twice = { ...valid, templates: [templateForm(stored), templateForm(stored)] };
  t.same(validateCustomerForm(twice), { 'template.1.template_name': DUPLICATE_TEMPLATE });
});
