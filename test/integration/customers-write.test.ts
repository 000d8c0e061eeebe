/**
 * Customer create / update and the customer lists (spec 001 §2.4, §4, §5, §8; 000 §3, §5, §7):
 * every rule of the form, answered by the server as 400 { detail }, and only admins may write.
 */
import t from 'tap';
import type { FastifyInstance } from 'fastify';
import { build, login, bearer } from '../helper.ts';

const NEW = {
  customer_name: 'Umbrella Labs',
  entity: 'nordic-group',
  billing_account_id: ' 03AAAA-BBBBBB-CCCCCC , 03DDDD-EEEEEE-FFFFFF ',
};

t.test('customer create and update', async (t) => {
  const app = await build(t);
  const admin = bearer(await login(app, 'admin@commandcenter.local'));
  const alice = bearer(await login(app, 'alice@acme.example'));
  const victor = bearer(await login(app, 'victor@acme.example'));
  const post = (payload: object, headers = admin) => app.inject({ method: 'POST', url: '/v1/customers/', payload, headers });
  const put = (id: string, payload: object, headers = admin) => app.inject({ method: 'PUT', url: `/v1/customers/${id}/`, payload, headers });

  t.test('create with defaults: id from the name, billing accounts without spaces, EUR, Standard', async (t) => {
    const res = await post(NEW);
    t.equal(res.statusCode, 201, res.body);
    const c = res.json();
    t.equal(c.customer_id, 'umbrellalabs');
    t.equal(c.id, 'umbrellalabs');
    t.equal(c.customer_name, 'Umbrella Labs');
    t.equal(c.billing_account_id, '03AAAA-BBBBBB-CCCCCC,03DDDD-EEEEEE-FFFFFF');
    t.equal(c.billing_currency, 'EUR');
    t.equal(c.billing_dashboard_type, 'Standard');
    t.equal(c.billing_dashboard_set_discount, null);
    t.same(c.billing_dashboard_tier_discount, []);
    t.equal(c.inventory, false);
    t.equal(c.minimum_anomaly_threshold, 20);
    t.equal(c.minimum_value_toggled_anomaly, 10);
    t.same([c.users, c.notify, c.alert], [[], [], []]);
    const read = await app.inject({ method: 'GET', url: '/v1/customers/umbrellalabs/', headers: admin });
    t.same(read.json(), c);
  });

  t.test('a duplicate id is a 400 naming it', async (t) => {
    const res = await post({ ...NEW, billing_account_id: '09AAAA-BBBBBB-CCCCCC' });
    t.equal(res.statusCode, 400);
    t.same(res.json(), { detail: 'Customer umbrellalabs already exists' });
  });

  t.test('customer id rules', async (t) => {
    const cases: [object, string][] = [
      [{ ...NEW, customer_name: 'Ab Cd' }, 'Customer Id: Must have at least 6 characters'],
      [{ ...NEW, customer_id: 'ab c' }, 'Customer Id: Must have at least 6 characters'],
      [{ ...NEW, customer_name: 'Acme 2000' }, 'Customer Id may contain only letters, hyphen and space'],
      [{ ...NEW, customer_id: 'acme_corp' }, 'Customer Id may contain only letters, hyphen and space'],
    ];
    for (const [body, detail] of cases) {
      const res = await post(body);
      t.equal(res.statusCode, 400);
      t.same(res.json(), { detail }, JSON.stringify(body));
    }
    const given = await post({ ...NEW, customer_name: 'Wayne 2 Enterprises', customer_id: 'Wayne Enter-prises', billing_account_id: '04AAAA' });
    t.equal(given.statusCode, 201, given.body);
    t.equal(given.json().customer_id, 'wayneenter-prises');
  });

  t.test('required fields', async (t) => {
    const labels = { customer_name: 'Name', entity: 'Entity', billing_account_id: 'Billing account Id' };
    for (const [field, label] of Object.entries(labels)) {
      for (const value of [undefined, '', '  ', ...(field === 'billing_account_id' ? [' , '] : [])]) {
        const res = await post({ ...NEW, customer_id: 'requiredcheck', [field]: value });
        t.equal(res.statusCode, 400);
        t.same(res.json(), { detail: `${label}: This field is required` }, `${field}=${JSON.stringify(value)}`);
      }
    }
    const unknownEntity = await post({ ...NEW, customer_id: 'requiredcheck', entity: 'no-such-entity' });
    t.same([unknownEntity.statusCode, unknownEntity.json()], [400, { detail: 'Entity not found' }]);
  });

  t.test('a billing account belongs to one customer', async (t) => {
    const res = await post({ ...NEW, customer_id: 'stealer', billing_account_id: '05AAAA, 01A2B3-C4D5E6-F7A8B9' });
    t.same([res.statusCode, res.json()], [400, { detail: 'Billing account 01A2B3-C4D5E6-F7A8B9 already belongs to customer acme-corp' }]);
    const own = await put('acme-corp', { billing_account_id: '01FFEE-DDCCBB-AA9988,01A2B3-C4D5E6-F7A8B9' });
    t.equal(own.statusCode, 200, own.body);
    t.equal(own.json().billing_account_id, '01FFEE-DDCCBB-AA9988,01A2B3-C4D5E6-F7A8B9', 'order kept: the first becomes the default');
  });

  t.test('currency', async (t) => {
    for (const cur of ['GBP', 'USD', 'DKK', 'EUR']) {
      const res = await put('umbrellalabs', { billing_currency: cur });
      t.equal(res.json().billing_currency, cur);
    }
    const bad = await put('umbrellalabs', { billing_currency: 'SEK' });
    t.same([bad.statusCode, bad.json()], [400, { detail: 'Currency must be one of EUR, GBP, USD, DKK' }]);
  });

  t.test('dashboard types: Set Discount needs a discount, Tier Discount numeric rows; other types drop them', async (t) => {
    const noDiscount = await put('umbrellalabs', { billing_dashboard_type: 'Set Discount' });
    t.same([noDiscount.statusCode, noDiscount.json()], [400, { detail: 'Discount (%): This field is required' }]);
    const tooMuch = await put('umbrellalabs', { billing_dashboard_type: 'Set Discount', billing_dashboard_set_discount: 101 });
    t.same([tooMuch.statusCode, tooMuch.json()], [400, { detail: 'Discount (%) must be 100 or less' }]);
    const set = await put('umbrellalabs', { billing_dashboard_type: 'Set Discount', billing_dashboard_set_discount: 7.5 });
    t.equal(set.json().billing_dashboard_set_discount, 7.5);

    const noTiers = await put('umbrellalabs', { billing_dashboard_type: 'Tier Discount', billing_dashboard_tier_discount: [] });
    t.same([noTiers.statusCode, noTiers.json()], [400, { detail: 'Discount tiers: This field is required' }]);
    const textTier = await put('umbrellalabs', {
      billing_dashboard_type: 'Tier Discount',
      billing_dashboard_tier_discount: [{ threshold_spend: 'lots', percentage: 2 }],
    });
    t.same([textTier.statusCode, textTier.json()], [400, { detail: 'Discount tiers, row 1: Threshold spend must be a number' }]);
    const same = await put('umbrellalabs', {
      billing_dashboard_type: 'Tier Discount',
      billing_dashboard_tier_discount: [{ threshold_spend: 10, percentage: 2 }, { threshold_spend: 10, percentage: 3 }],
    });
    t.same(same.json(), { detail: 'Discount tiers: two tiers have the same threshold spend' });
    const tiers = await put('umbrellalabs', {
      billing_dashboard_type: 'Tier Discount',
      billing_dashboard_tier_discount: [{ threshold_spend: '50000', percentage: '4' }, { threshold_spend: 10000, percentage: 2 }],
    });
    t.equal(tiers.statusCode, 200, tiers.body);
    t.same(tiers.json().billing_dashboard_tier_discount, [{ threshold_spend: 10000, percentage: 2 }, { threshold_spend: 50000, percentage: 4 }]);
    t.equal(tiers.json().billing_dashboard_set_discount, null, 'the set discount is dropped');

    const standard = await put('umbrellalabs', { billing_dashboard_type: 'Standard' });
    t.same(standard.json().billing_dashboard_tier_discount, []);
    const unknown = await put('umbrellalabs', { billing_dashboard_type: 'Fancy' });
    t.same([unknown.statusCode, unknown.json()], [400, { detail: 'Dashboard type must be one of Standard, Set Discount, Tier Discount' }]);
  });

  t.test("the stored type 'Discount' of spec 000 §3 is taken as Set Discount", async (t) => {
    const noDiscount = await put('umbrellalabs', { billing_dashboard_type: 'Discount' });
    t.same([noDiscount.statusCode, noDiscount.json()], [400, { detail: 'Discount (%): This field is required' }], 'with the same rule');
    const res = await put('umbrellalabs', { billing_dashboard_type: 'Discount', billing_dashboard_set_discount: 4 });
    t.equal(res.statusCode, 200, res.body);
    t.match(res.json(), { billing_dashboard_type: 'Set Discount', billing_dashboard_set_discount: 4 });
    const created = await post({ ...NEW, customer_name: 'Discount Labs', billing_account_id: '0DDDDD-111111', billing_dashboard_type: 'Discount', billing_dashboard_set_discount: 3 });
    t.equal(created.statusCode, 201, created.body);
    t.equal(created.json().billing_dashboard_type, 'Set Discount');
  });

  t.test('every 400 on a customer field names the field as the form does, in a sentence', async (t) => {
    const cases: [object, string][] = [
      [{ support_request: 'yes' }, 'Rapid Architecture Ticket must be true or false'],
      [{ minimum_anomaly_threshold: -1 }, 'Minimum Threshold must be 0 or more'],
      [{ minimum_value_toggled_anomaly: 'ten' }, 'Minimum Require Change Amount must be a number'],
      [{ billing_dashboard_tier_discount: [{ percentage: 2 }] }, 'Discount tiers, row 1: Threshold spend: This field is required'],
      [{ billing_dashboard_tier_discount: [{ threshold_spend: 1, percentage: 2 }, { threshold_spend: 2, percentage: 120 }] }, 'Discount tiers, row 2: Percentage must be 100 or less'],
      [{ project_provisioning: [{ template_name: 'a' }] }, 'Project templates, template 1: Folder name: This field is required'],
      [{ business_units: [{ name: 'x' }] }, 'Business units, row 1 must be text'],
    ];
    for (const [body, detail] of cases) {
      const res = await put('umbrellalabs', body);
      t.same([res.statusCode, res.json()], [400, { detail }], JSON.stringify(body));
    }
    const notObject = await app.inject({ method: 'PUT', url: '/v1/customers/umbrellalabs/', headers: admin, payload: [1] });
    t.same([notObject.statusCode, notObject.json()], [400, { detail: 'The customer must be sent as a JSON object' }]);
    // Other routes keep the generic '{part}/{property} …' detail.
    const entity = await app.inject({ method: 'POST', url: '/v1/entities/', headers: admin, payload: { name: { x: 1 } } });
    t.equal(entity.statusCode, 400);
    t.match(entity.json().detail, /^body\//, `generic elsewhere: ${entity.json().detail}`);
  });

  t.test('Inventory and System health only with a Service Account; unticking clears them', async (t) => {
    const without = await put('umbrellalabs', { inventory: true });
    t.same([without.statusCode, without.json()], [400, { detail: 'Inventory and System health need a Service Account' }]);
    const noEmail = await put('umbrellalabs', { gcp_service_account: true });
    t.same(noEmail.json(), { detail: 'Service account e-mail: This field is required' });
    const badEmail = await put('umbrellalabs', { gcp_service_account: true, service_account_email: 'robot@nowhere' });
    t.same(badEmail.json(), { detail: 'Service account e-mail: Email is not valid' });
    const on = await put('umbrellalabs', {
      gcp_service_account: true,
      service_account_email: 'CC@Umbrella-Ops.iam.gserviceaccount.com',
      inventory: true,
      system_health_dashboard: true,
    });
    t.equal(on.statusCode, 200, on.body);
    t.match(on.json(), { gcp_service_account: true, service_account_email: 'cc@umbrella-ops.iam.gserviceaccount.com', inventory: true, system_health_dashboard: true });
    const off = await put('umbrellalabs', { gcp_service_account: false });
    t.match(off.json(), { gcp_service_account: false, service_account_email: '', inventory: false, system_health_dashboard: false });
  });

  t.test('side panels: monitoring link, workspace domain, drive folder', async (t) => {
    const badLink = await put('umbrellalabs', { grafana_external_link: 'javascript:alert(1)' });
    t.same(badLink.json(), { detail: 'Customized monitoring dashboard link: must be an http(s) link' });
    const noDomain = await put('umbrellalabs', { workspace_license: true });
    t.same(noDomain.json(), { detail: 'Workspace license domain identifier: This field is required' });
    const badDomain = await put('umbrellalabs', { domain_name: 'not a domain' });
    t.same(badDomain.json(), { detail: 'Workspace license domain identifier: not a domain name' });
    const res = await put('umbrellalabs', {
      grafana_external_link: 'https://grafana.example/d/abc',
      workspace_license: true,
      domain_name: 'Umbrella.Example',
      documentation: true,
      drive_id: 'https://drive.google.com/drive/folders/1UmbrellaFolder_x-Y?usp=sharing',
    });
    t.equal(res.statusCode, 200, res.body);
    t.match(res.json(), {
      grafana_external_link: 'https://grafana.example/d/abc',
      domain_name: 'umbrella.example',
      drive_id: '1UmbrellaFolder_x-Y',
      drive_link: 'https://drive.google.com/drive/folders/1UmbrellaFolder_x-Y',
    });
    const other = await put('umbrellalabs', { drive_id: 'https://drive.google.com/drive/u/1/folders/2Other' });
    t.equal(other.json().drive_id, '2Other');
    const blank = await put('umbrellalabs', { drive_id: '', grafana_external_link: '' });
    t.match(blank.json(), { drive_id: '', drive_link: '', grafana_external_link: '' });
  });

  t.test('anomaly thresholds and project provisioning fields', async (t) => {
    const negative = await put('umbrellalabs', { minimum_anomaly_threshold: -1 });
    t.same([negative.statusCode, negative.json()], [400, { detail: 'Minimum Threshold must be 0 or more' }]);
    const template = {
      template_name: 'Data',
      folder_name: 'data',
      folder_number: '42',
      project_template: {
        project_type: 'data', default_admin: 'alice@acme.example', budget: 500, owner_label: 'owner',
        project_name: 'umb-{bu}-{product}-{env}', quota: { bigquery_analysis: 5, compute_engine_cpus: 8 },
      },
    };
    const res = await put('umbrellalabs', {
      anomaly_detection: true,
      minimum_anomaly_threshold: 35,
      minimum_value_toggled_anomaly: 250.5,
      business_units: [' retail ', 'retail', ''],
      products: ['shop'],
      env: ['dev', 'prod'],
      owner_values: ['ops'],
      project_provisioning: [template],
    });
    t.equal(res.statusCode, 200, res.body);
    t.match(res.json(), { anomaly_detection: true, minimum_anomaly_threshold: 35, minimum_value_toggled_anomaly: 250.5, business_units: ['retail'], env: ['dev', 'prod'] });
    t.same(res.json().project_provisioning, [template]);
    const dup = await put('umbrellalabs', { project_provisioning: [template, template] });
    t.same(dup.json(), { detail: 'Project templates: template names must be unique' });
  });

  t.test('update keeps omitted fields, ignores a customer_id in the body', async (t) => {
    const before = (await app.inject({ method: 'GET', url: '/v1/customers/acme-corp/', headers: admin })).json();
    const res = await put('acme-corp', { customer_name: 'Acme Corporation', customer_id: 'globex' });
    t.equal(res.statusCode, 200);
    t.same(res.json(), { ...before, customer_name: 'Acme Corporation' });
    const globex = (await app.inject({ method: 'GET', url: '/v1/customers/globex/', headers: admin })).json();
    t.equal(globex.customer_name, 'Globex Corporation');
  });

  t.test('nothing is half-saved on a bad update', async (t) => {
    const before = (await app.inject({ method: 'GET', url: '/v1/customers/globex/', headers: admin })).json();
    const res = await put('globex', { customer_name: 'Changed', billing_dashboard_type: 'Set Discount', billing_dashboard_set_discount: null });
    t.equal(res.statusCode, 400);
    t.same((await app.inject({ method: 'GET', url: '/v1/customers/globex/', headers: admin })).json(), before);
    const late = await put('globex', { customer_name: 'Changed', billing_account_id: '01A2B3-C4D5E6-F7A8B9' });
    t.equal(late.statusCode, 400, 'refused after the settings were resolved');
    t.same((await app.inject({ method: 'GET', url: '/v1/customers/globex/', headers: admin })).json(), before);
  });

  t.test('unknown customer → 404 Customer not found', async (t) => {
    const res = await put('nosuchcustomer', { customer_name: 'x' });
    t.same([res.statusCode, res.json()], [404, { detail: 'Customer not found' }]);
  });

  t.test('only admins write customers; a customer reads only their own settings', async (t) => {
    t.equal((await post({ ...NEW, customer_id: 'aliceco' }, alice)).statusCode, 403);
    t.equal((await put('acme-corp', { customer_name: 'Mine' }, alice)).statusCode, 403);
    t.equal((await put('acme-corp', { customer_name: 'Mine' }, victor)).statusCode, 403);
    const own = await app.inject({ method: 'GET', url: '/v1/customers/acme-corp/', headers: alice });
    t.equal(own.statusCode, 200);
    const other = await app.inject({ method: 'GET', url: '/v1/customers/initech/', headers: alice });
    t.same([other.statusCode, other.json()], [404, { detail: 'Customer not found' }]);
  });

  t.test('Customer Settings: a customer reads the name of their own customer’s entity, not another’s', async (t) => {
    const own = await app.inject({ method: 'GET', url: '/v1/customers/acme-corp/entity/', headers: alice });
    t.same([own.statusCode, own.json()], [200, { id: 'nordic-group', name: 'Nordic Group' }]);
    const bob = bearer(await login(app, 'bob@initech.example'));
    const other = await app.inject({ method: 'GET', url: '/v1/customers/acme-corp/entity/', headers: bob });
    t.same([other.statusCode, other.json()], [404, { detail: 'Customer not found' }]);
    t.same((await app.inject({ method: 'GET', url: '/v1/customers/initech/entity/', headers: bob })).json(), { id: 'solo-ventures', name: 'Solo Ventures' });
    // A customer whose entity is unset reads nulls ('No Entity' on screen).
    await app.env.pool.query(`UPDATE customer SET entity = NULL WHERE customer_id = 'initech'`);
    await app.access.publish(); // a write outside the api: the access epoch moves before the next request (NOTIFY may lag)
    t.same((await app.inject({ method: 'GET', url: '/v1/customers/initech/entity/', headers: bob })).json(), { id: null, name: null });
    const unknown = await app.inject({ method: 'GET', url: '/v1/customers/nosuchcustomer/entity/', headers: admin });
    t.equal(unknown.statusCode, 404);
  });
});

t.test('customer lists: users, notify, alert', async (t) => {
  const app = await build(t);
  const admin = bearer(await login(app, 'admin@commandcenter.local'));
  const alice = bearer(await login(app, 'alice@acme.example'));
  const list = (method: 'PUT' | 'POST' | 'DELETE', id: string, name: string, users: string[], headers = admin) =>
    app.inject({ method, url: `/v1/customers/${id}/lists/${name}/`, payload: { users }, headers });

  t.test('add to notify and alert; addresses are trimmed and lower-cased', async (t) => {
    const res = await list('POST', 'initech', 'notify', [' Ops@Initech.example ']);
    t.equal(res.statusCode, 200, res.body);
    t.same(res.json().notify, ['bob@initech.example', 'ops@initech.example']);
    const alert = await list('POST', 'initech', 'alert', ['bob@initech.example']);
    t.same(alert.json().alert, ['bob@initech.example']);
    const bad = await list('POST', 'initech', 'alert', ['not-an-email']);
    t.same([bad.statusCode, bad.json()], [400, { detail: 'Email is not valid: not-an-email' }]);
  });

  t.test('users list takes only existing users', async (t) => {
    const res = await list('POST', 'initech', 'users', ['stranger@nowhere.example']);
    t.same([res.statusCode, res.json()], [400, { detail: 'Unknown user(s): stranger@nowhere.example' }]);
  });

  t.test('granting access is effective on the user’s next request', async (t) => {
    const before = await app.inject({ method: 'GET', url: '/v1/customers/initech/', headers: alice });
    t.equal(before.statusCode, 404);
    const res = await list('POST', 'initech', 'users', ['alice@acme.example']);
    t.same(res.json().users, ['alice@acme.example', 'bob@initech.example']);
    const after = await app.inject({ method: 'GET', url: '/v1/customers/initech/', headers: alice });
    t.equal(after.statusCode, 200);
  });

  t.test('removing access removes the user from the customer’s notify and alert lists and filters', async (t) => {
    await list('POST', 'acme-corp', 'notify', ['victor@acme.example']);
    const victorToken = bearer(await login(app, 'victor@acme.example'));
    const me = await app.inject({ method: 'GET', url: '/v1/auth/me', headers: victorToken });
    t.same(me.json().claims.filters, [{ customer: 'acme-corp', project_label: [{ label_key: 'team', label_value: 'analytics' }] }]);
    const res = await list('DELETE', 'acme-corp', 'users', ['victor@acme.example']);
    t.equal(res.statusCode, 200);
    const doc = res.json();
    t.notOk(doc.users.includes('victor@acme.example'));
    t.notOk(doc.notify.includes('victor@acme.example'));
    t.same(doc.filters, []);
    const next = await app.inject({ method: 'GET', url: '/v1/customers/acme-corp/', headers: victorToken });
    t.same([next.statusCode, next.json()], [404, { detail: 'Customer not found' }]);
    const claims = await app.inject({ method: 'GET', url: '/v1/auth/me', headers: victorToken });
    t.same(claims.json().claims.filters, [], 'claims refreshed');
  });

  t.test('replace a list', async (t) => {
    const res = await list('PUT', 'globex', 'alert', ['alice@acme.example', 'finance@globex.example']);
    t.same(res.json().alert, ['alice@acme.example', 'finance@globex.example']);
    const again = await list('PUT', 'globex', 'alert', ['finance@globex.example']);
    t.same(again.json().alert, ['finance@globex.example']);
    t.same(again.json().users, ['alice@acme.example'], 'other lists untouched');
  });

  t.test('unknown list and unknown customer', async (t) => {
    t.equal((await list('POST', 'globex', 'friends', ['alice@acme.example'])).statusCode, 400);
    const res = await list('POST', 'nosuchcustomer', 'notify', ['alice@acme.example']);
    t.same([res.statusCode, res.json()], [404, { detail: 'Customer not found' }]);
  });

  t.test('only admins change lists', async (t) => {
    t.equal((await list('POST', 'acme-corp', 'notify', ['x@acme.example'], alice)).statusCode, 403);
  });
});

t.test('service access and script', async (t) => {
  const app = await build(t);
  const admin = bearer(await login(app, 'admin@commandcenter.local'));
  const alice = bearer(await login(app, 'alice@acme.example'));
  const bob = bearer(await login(app, 'bob@initech.example'));
  await seedProjects(app);

  t.test('granted projects of a customer with a service account', async (t) => {
    const res = await app.inject({ method: 'GET', url: '/v1/customers/acme-corp/service/access/', headers: admin });
    t.equal(res.statusCode, 200, res.body);
    t.same(res.json(), {
      service_account_email: 'commandcenter@acme-corp-ops.iam.gserviceaccount.com',
      projects: [
        { project_id: 'acme-analytics', project_name: 'Acme Analytics' },
        { project_id: 'acme-shop-prod', project_name: 'Acme Shop' },
      ],
    });
    t.equal((await app.inject({ method: 'GET', url: '/v1/customers/acme-corp/service/access/', headers: alice })).statusCode, 200, 'own customer');
    const other = await app.inject({ method: 'GET', url: '/v1/customers/acme-corp/service/access/', headers: bob });
    t.same([other.statusCode, other.json()], [404, { detail: 'Customer not found' }]);
    const none = await app.inject({ method: 'GET', url: '/v1/customers/globex/service/access/', headers: admin });
    t.same([none.statusCode, none.json()], [400, { detail: 'This customer has no service account' }]);
  });

  t.test('grant and revoke scripts', async (t) => {
    const url = '/v1/customers/acme-corp/service/script/';
    const grant = await app.inject({ method: 'POST', url, headers: admin, payload: { customer_id: 'acme-corp', action: 'grant', project_ids: 'acme-shop-prod, acme-analytics,' } });
    t.equal(grant.statusCode, 200, grant.body);
    const script: string = grant.json().script;
    t.match(script, /^#!\/usr\/bin\/env bash/);
    t.match(script, /SERVICE_ACCOUNT="serviceAccount:commandcenter@acme-corp-ops\.iam\.gserviceaccount\.com"/);
    t.match(script, /PROJECTS=\(acme-shop-prod acme-analytics\)/);
    t.match(script, /gcloud projects add-iam-policy-binding "\$project"/);
    const revoke = await app.inject({ method: 'POST', url, headers: admin, payload: { action: 'revoke', project_ids: ['acme-analytics'] } });
    t.match(revoke.json().script, /remove-iam-policy-binding/);
    const bad = await app.inject({ method: 'POST', url, headers: admin, payload: { action: 'grant', project_ids: 'Bad_Project' } });
    t.same([bad.statusCode, bad.json()], [400, { detail: 'Invalid project id(s): Bad_Project' }]);
    const empty = await app.inject({ method: 'POST', url, headers: admin, payload: { action: 'grant', project_ids: ' , ' } });
    t.same(empty.json(), { detail: 'project_ids: This field is required' });
    const mismatch = await app.inject({ method: 'POST', url, headers: admin, payload: { customer_id: 'globex', action: 'grant', project_ids: 'acme-analytics' } });
    t.same(mismatch.json(), { detail: 'customer_id does not match the customer in the path' });
    const action = await app.inject({ method: 'POST', url, headers: admin, payload: { action: 'delete', project_ids: 'acme-analytics' } });
    t.equal(action.statusCode, 400);
    t.equal((await app.inject({ method: 'POST', url, headers: alice, payload: { action: 'grant', project_ids: 'acme-analytics' } })).statusCode, 403);
  });
});

/** Daily rollups of two GCP projects and one AWS account for acme-corp: what the local adapter derives projects from. */
async function seedProjects(app: FastifyInstance & { env: { pool: import('pg').Pool } }) {
  await app.env.pool.query(
    `INSERT INTO cost_daily (customer_id, billing_account_id, usage_date, provider, provider_name, project_id, project_name, service, cost, credits, currency)
     VALUES ('acme-corp', '01A2B3-C4D5E6-F7A8B9', '2026-11-01', 'gcp', 'Google Cloud', 'acme-shop-prod', 'Acme Shop', 'Compute Engine', 10, 0, 'EUR'),
            ('acme-corp', '01A2B3-C4D5E6-F7A8B9', '2026-11-02', 'gcp', 'Google Cloud', 'acme-shop-prod', 'Acme Shop', 'BigQuery', 5, 0, 'EUR'),
            ('acme-corp', '01FFEE-DDCCBB-AA9988', '2026-11-01', 'gcp', 'Google Cloud', 'acme-analytics', 'Acme Analytics', 'BigQuery', 3, 0, 'EUR'),
            ('acme-corp', '01FFEE-DDCCBB-AA9988', '2026-11-01', 'aws', 'AWS', '123456789012', 'prod', 'EC2', 3, 0, 'EUR')`,
  );
}
