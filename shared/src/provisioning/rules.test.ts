import t from 'tap';
import {
  PROJECT_STATES,
  PROVISIONING_STEPS,
  REQUEST_LABEL,
  adminMember,
  bigQueryDailyLimitMiB,
  budgetMoney,
  canTransition,
  checkNewProject,
  generateProjectId,
  labelKeyProblem,
  labelValueProblem,
  nextStep,
  projectIdProblem,
  projectLabels,
  type ProjectTemplate,
  type ProvisioningChoices,
} from './rules.ts';

const TEMPLATE: ProjectTemplate = {
  template_name: 'Standard analytics project',
  folder_name: 'analytics',
  folder_number: '123456789012',
  project_template: {
    project_type: 'analytics',
    default_admin: 'alice@acme.example',
    budget: 1000,
    owner_label: 'cost-owner',
    project_name: 'acme-{bu}-{product}-{env}',
    quota: { bigquery_analysis: 10, compute_engine_cpus: 24 },
  },
};

const ACME: ProvisioningChoices = {
  business_units: ['retail', 'finance', 'Sales Team'],
  products: ['webshop', 'ledger', 'a-very-long-product-name'],
  env: ['dev', 'prod', 'prod-'],
  owner_values: ['alice', 'finance-team', 'Finance'],
  project_provisioning: [TEMPLATE],
};

const OK = { bu: 'retail', product: 'webshop', env: 'prod', owner_value: 'alice', template_name: 'Standard analytics project' };

t.test('the generated id replaces every placeholder', async (t) => {
  t.equal(generateProjectId('acme-{bu}-{product}-{env}', { bu: 'retail', product: 'webshop', env: 'dev' }), 'acme-retail-webshop-dev');
  t.equal(generateProjectId('{env}-{bu}-{env}', { bu: 'x', product: 'y', env: 'dev' }), 'dev-x-dev');
  t.equal(generateProjectId('fixed-name', { bu: 'x', product: 'y', env: 'z' }), 'fixed-name');
});

t.test("Google's project id rules, each with its message", async (t) => {
  t.equal(projectIdProblem('acme-retail-webshop-prod'), null);
  t.equal(projectIdProblem('abcdef'), null, '6 characters');
  t.equal(projectIdProblem('a'.repeat(30)), null, '30 characters');
  t.equal(projectIdProblem('abcde'), "Project id 'abcde' must be 6 to 30 characters long");
  t.equal(projectIdProblem('a'.repeat(31)), `Project id '${'a'.repeat(31)}' must be 6 to 30 characters long`);
  t.equal(projectIdProblem('1acme-prod'), "Project id '1acme-prod' must start with a lower-case letter");
  t.equal(projectIdProblem('-acme-prod'), "Project id '-acme-prod' must start with a lower-case letter");
  t.equal(projectIdProblem('acme-Retail'), "Project id 'acme-Retail' may contain only lower-case letters, digits and hyphens");
  t.equal(projectIdProblem('acme_retail'), "Project id 'acme_retail' may contain only lower-case letters, digits and hyphens");
  t.equal(projectIdProblem('acme retail'), "Project id 'acme retail' may contain only lower-case letters, digits and hyphens");
  t.equal(projectIdProblem('acme-retail-'), "Project id 'acme-retail-' must not end with a hyphen");
  t.equal(projectIdProblem('acme-{team}'), "Project id 'acme-{team}' still holds a placeholder: only {bu}, {product} and {env} are replaced");
});

t.test('label key and value rules', async (t) => {
  t.equal(labelKeyProblem('cost-owner'), null);
  t.equal(labelKeyProblem('cost_owner2'), null);
  t.equal(labelKeyProblem(''), "Label key '' must be 1 to 63 characters long");
  t.equal(labelKeyProblem('k'.repeat(64)), `Label key '${'k'.repeat(64)}' must be 1 to 63 characters long`);
  t.equal(labelKeyProblem('2owner'), "Label key '2owner' must start with a lower-case letter");
  t.equal(labelKeyProblem('Owner'), "Label key 'Owner' must start with a lower-case letter");
  t.equal(labelKeyProblem('cost.owner'), "Label key 'cost.owner' may contain only lower-case letters, digits, underscores and hyphens");
  t.equal(labelValueProblem(''), null, 'values may be empty');
  t.equal(labelValueProblem('2-finance_team'), null, 'values may start with a digit');
  t.equal(labelValueProblem('v'.repeat(64)), `Label value '${'v'.repeat(64)}' must be at most 63 characters long`);
  t.equal(labelValueProblem('Finance'), "Label value 'Finance' may contain only lower-case letters, digits, underscores and hyphens");
});

t.test('New Project: every field required and one of the choices; id and labels checked', async (t) => {
  t.strictSame(checkNewProject({ ...OK, bu: ' retail ' }, ACME), {
    bu: 'retail',
    product: 'webshop',
    env: 'prod',
    owner_value: 'alice',
    template: TEMPLATE,
    project_name: 'acme-retail-webshop-prod',
  });
  for (const [field, label] of [
    ['bu', 'Business Unit'],
    ['product', 'Product'],
    ['env', 'Environment'],
    ['owner_value', 'Cost Owner'],
    ['template_name', 'Project Template'],
  ] as const) {
    t.throws(() => checkNewProject({ ...OK, [field]: undefined }, ACME), { message: `${label}: This field is required` }, `${field} missing`);
    t.throws(() => checkNewProject({ ...OK, [field]: '  ' }, ACME), { message: `${label}: This field is required` }, `${field} blank`);
    t.throws(() => checkNewProject({ ...OK, [field]: 'other' }, ACME), { message: `${label} 'other' is not one of the customer's choices` });
  }
  t.throws(() => checkNewProject({ ...OK, bu: 'Sales Team' }, ACME), {
    message: "Project id 'acme-Sales Team-webshop-prod' may contain only lower-case letters, digits and hyphens",
  });
  t.throws(() => checkNewProject({ ...OK, product: 'a-very-long-product-name' }, ACME), {
    message: "Project id 'acme-retail-a-very-long-product-name-prod' must be 6 to 30 characters long",
  });
  t.throws(() => checkNewProject({ ...OK, env: 'prod-', product: 'ledger' }, ACME), { message: "Project id 'acme-retail-ledger-prod-' must not end with a hyphen" });
  t.throws(() => checkNewProject({ ...OK, owner_value: 'Finance' }, ACME), {
    message: "Label value 'Finance' may contain only lower-case letters, digits, underscores and hyphens",
  });

  const withTemplate = (p: Partial<ProjectTemplate['project_template']>, folder_number = '123') => ({
    ...ACME,
    project_provisioning: [{ ...TEMPLATE, folder_number, project_template: { ...TEMPLATE.project_template, ...p } }],
  });
  t.throws(() => checkNewProject(OK, withTemplate({ owner_label: 'Cost Owner' })), { message: "Label key 'Cost Owner' must start with a lower-case letter" });
  t.throws(() => checkNewProject(OK, withTemplate({ owner_label: REQUEST_LABEL })), { message: `Label key '${REQUEST_LABEL}' is reserved` });
  t.throws(() => checkNewProject(OK, withTemplate({ project_name: '{bu}-{team}' })), {
    message: "Project id 'retail-{team}' still holds a placeholder: only {bu}, {product} and {env} are replaced",
  });
  t.throws(() => checkNewProject(OK, withTemplate({}, 'folders/1')), {
    message: "Folder number 'folders/1' of template 'Standard analytics project' must be digits",
  });
  t.throws(() => checkNewProject(OK, withTemplate({ default_admin: ' ' })), {
    message: "Default admin of template 'Standard analytics project': This field is required",
  });
});

t.test('states and their transitions', async (t) => {
  t.same(PROJECT_STATES, ['Pending approval', 'Approved', 'Creating', 'Active', 'Rejected', 'Failed']);
  t.ok(canTransition('Pending approval', 'Approved'));
  t.ok(canTransition('Pending approval', 'Rejected'));
  t.ok(canTransition('Approved', 'Creating'));
  t.ok(canTransition('Creating', 'Active'));
  t.ok(canTransition('Creating', 'Failed'));
  t.ok(canTransition('Failed', 'Approved'), 'retry');
  t.notOk(canTransition('Pending approval', 'Creating'), 'never created before approval');
  t.notOk(canTransition('Active', 'Failed'));
  t.notOk(canTransition('Rejected', 'Approved'));
});

t.test('the ordered chain of steps', async (t) => {
  t.same(PROVISIONING_STEPS, ['create_project', 'await_project', 'link_billing', 'labels', 'budget', 'quota_bigquery', 'quota_compute', 'default_admin']);
  t.equal(nextStep('create_project'), 'await_project');
  t.equal(nextStep('quota_compute'), 'default_admin');
  t.equal(nextStep('default_admin'), null);
});

t.test('labels, admin member and amounts', async (t) => {
  t.same(projectLabels(TEMPLATE, 'alice', 'req-1'), { 'cost-owner': 'alice', [REQUEST_LABEL]: 'req-1' });
  t.equal(adminMember('alice@acme.example'), 'user:alice@acme.example');
  t.equal(adminMember('group:admins@acme.example'), 'group:admins@acme.example');
  t.same(budgetMoney(1000, 'EUR'), { currencyCode: 'EUR', units: '1000', nanos: 0 });
  t.same(budgetMoney(99.95, 'USD'), { currencyCode: 'USD', units: '99', nanos: 950_000_000 });
  t.equal(bigQueryDailyLimitMiB(10), 10_485_760);
  t.equal(bigQueryDailyLimitMiB(0.5), 524_288);
});
