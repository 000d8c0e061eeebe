import t from 'tap';
import { startFakeGrafana, type FakeGrafana, type FakeOrg } from '../fakes/grafana-server.ts';
import { takeViolations } from '../fakes/spec-violations.ts';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DATASOURCE_NAME, DATASOURCE_UID, FOLDER_UID, GrafanaError, grafanaMonitoringService, serviceAccountKeyFromDir } from '@cc/shared/adapters/monitoring/real.ts';
import { monitoringServiceFromConfig } from '@cc/shared/adapters/monitoring/from-config.ts';
import { loadDashboardTemplates } from '@cc/shared/adapters/monitoring/dashboard-templates.ts';
import { localMonitoringService } from '@cc/shared/adapters/monitoring/local.ts';
import type { MonitoringCustomer } from '@cc/shared/ports/monitoring.ts';

const ADMIN = { adminUser: 'admin', adminPassword: 'admin-secret' };
const CUSTOMER: MonitoringCustomer = {
  customer_id: 'acme-corp',
  customer_name: 'Acme Corp',
  service_account_email: 'cc-acme@msp-prod.iam.gserviceaccount.com',
  projects: [
    { project_id: 'acme-prod', project_name: 'Acme Production' },
    { project_id: 'acme-dev', project_name: 'acme-dev' },
  ],
};
const TEMPLATES = loadDashboardTemplates();

async function setup(t: { teardown(fn: () => unknown): void }, opts: { key?: string } = {}) {
  const grafana = await startFakeGrafana(ADMIN);
  t.teardown(() => grafana.close());
  const service = grafanaMonitoringService({
    url: grafana.url,
    publicUrl: 'https://grafana.msp.example',
    ...ADMIN,
    templates: TEMPLATES,
    serviceAccountKey: async () => opts.key ?? null,
  });
  return { grafana, service };
}

const orgOf = (g: FakeGrafana) => g.orgByName('acme-corp')!;
const counts = (g: FakeGrafana) => {
  const o = orgOf(g);
  return { orgs: g.orgs.size, users: g.users.size, folders: o.folders.size, datasources: o.datasources.size, dashboards: o.dashboards.size };
};
const versions = (o: FakeOrg) => [...o.dashboards.values()].map((d) => d.version);
const canLogIn = (g: FakeGrafana, login: string, password: string) => g.userByLogin(login)?.password === password;

t.test('initialise provisions organisation, user, folder, data source and dashboards', async (t) => {
  const { grafana, service } = await setup(t);
  const account = await service.initialise(CUSTOMER);
  t.equal(account.login, 'Acme Corp', 'the user ID equals the customer name');
  t.match(account.password, /^.{24}$/);
  const org = orgOf(grafana);
  t.same(account.dashboardUrl, `https://grafana.msp.example/d/cc-system-health?orgId=${org.id}`);
  const user = grafana.userByLogin('Acme Corp')!;
  t.ok(canLogIn(grafana, 'Acme Corp', account.password), 'the user signs in with the returned password');
  t.same([...user.orgs], [[org.id, 'Viewer']], 'a Viewer of the customer organisation only');
  t.same(account.remote, { orgId: org.id, userId: user.id, folderUid: FOLDER_UID, datasourceUid: DATASOURCE_UID });

  const folder = org.folders.get(FOLDER_UID)!;
  t.same(folder.permissions, [{ userId: user.id, permission: 1 }], 'the folder is visible to that user only');

  const ds = org.datasources.get(DATASOURCE_UID)!;
  t.match(ds, { name: DATASOURCE_NAME, type: 'stackdriver', access: 'proxy' });
  t.same(ds.jsonData, { authenticationType: 'gce', defaultProject: 'acme-prod', usingImpersonation: true, serviceAccountToImpersonate: CUSTOMER.service_account_email });

  t.same([...org.dashboards.keys()], TEMPLATES.map((x) => x.uid));
  const main = org.dashboards.get('cc-system-health')!;
  t.equal(main.folderUid, FOLDER_UID);
  const json = JSON.stringify(main.json);
  t.notMatch(json, /\$\{DS_CLOUD_MONITORING\}|\$\{CC_CUSTOMER_NAME\}|__inputs|__requires/, 'placeholders filled, export keys dropped');
  t.match(json, /"uid":"cc-cloud-monitoring"/);
  t.match(main.json.description, /System Health of Acme Corp\./);
  const project = (main.json.templating as { list: Record<string, unknown>[] }).list.find((v) => v.name === 'project')!;
  t.equal(project.query, 'Acme Production : acme-prod,acme-dev');
  t.same(project.current, { text: 'Acme Production', value: 'acme-prod' });

  for (const r of grafana.requests) {
    t.equal(r.headers.authorization, `Basic ${Buffer.from('admin:admin-secret').toString('base64')}`, `${r.method} ${r.path} uses admin Basic auth`);
    if (/^\/api\/(folders|datasources|dashboards)/.test(r.path)) t.equal(r.headers['x-grafana-org-id'], String(org.id), `${r.path} names the organisation`);
  }
  t.notOk(grafana.requests.some((r) => r.body.includes(account.password) && !/^\/api\/admin\/users/.test(r.path)), 'the password goes to the user calls only');
  t.same(grafana.unhandled, []);
});

t.test('initialise twice creates nothing twice and keeps the stored password', async (t) => {
  const { grafana, service } = await setup(t);
  const first = await service.initialise(CUSTOMER);
  const before = { ...counts(grafana), versions: versions(orgOf(grafana)) };
  const second = await service.initialise(CUSTOMER, { password: first.password });
  t.same({ ...counts(grafana), versions: versions(orgOf(grafana)) }, before, 'same objects, dashboards not re-saved');
  t.same(second, first);
  t.ok(canLogIn(grafana, 'Acme Corp', first.password));
  const statuses = grafana.requests.slice(-20).map((r) => `${r.method} ${r.path.split('?')[0]} ${r.status}`);
  t.ok(statuses.includes('POST /api/admin/users 412'), 'the duplicate user is Grafana 412');
  t.ok(statuses.includes('POST /api/folders 409'), 'the duplicate folder is Grafana 409');
  t.ok(statuses.includes('POST /api/datasources 409'), 'the duplicate data source is Grafana 409');
  t.ok(statuses.includes('POST /api/dashboards/db 412'), 'the existing dashboard is Grafana 412');
  t.same(grafana.unhandled, []);
});

t.test('a half-done initialise (data source failed) is completed by the next run', async (t) => {
  const { grafana, service } = await setup(t);
  grafana.failNext('POST', '/api/datasources', 500);
  const err = await service.initialise(CUSTOMER, { password: 'kept-from-the-store-1A!' }).catch((e: unknown) => e);
  t.ok(err instanceof GrafanaError);
  t.equal((err as GrafanaError).message, 'Grafana POST /api/datasources answered 500: Internal Server Error');
  t.notMatch((err as Error).message, /kept-from-the-store/, 'no secret in the error');
  const half = orgOf(grafana);
  t.equal(half.datasources.size, 0);
  t.equal(half.dashboards.size, 0);
  t.ok(half.folders.has(FOLDER_UID));

  const account = await service.initialise(CUSTOMER, { password: 'kept-from-the-store-1A!' });
  t.same(counts(grafana), { orgs: 2, users: 2, folders: 1, datasources: 1, dashboards: TEMPLATES.length });
  t.ok(canLogIn(grafana, 'Acme Corp', 'kept-from-the-store-1A!'));
  t.equal(account.password, 'kept-from-the-store-1A!');
  t.same(grafana.unhandled, []);
});

t.test('rebuild overwrites dashboards and repairs what is missing', async (t) => {
  const { grafana, service } = await setup(t, {
    key: JSON.stringify({ type: 'service_account', client_email: 'cc-acme@msp-prod.iam.gserviceaccount.com', private_key: '-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----\n', project_id: 'msp-prod' }),
  });
  const { password } = await service.initialise(CUSTOMER);
  const org = orgOf(grafana);
  const main = org.dashboards.get('cc-system-health')!;
  main.json = { ...main.json, panels: [], title: 'Hacked' };
  main.version = 5;
  org.dashboards.delete('cc-data-services');
  org.folders.get(FOLDER_UID)!.permissions = [{ role: 'Viewer', permission: 1 }];
  org.datasources.get(DATASOURCE_UID)!.jsonData = {};
  grafana.userByLogin('Acme Corp')!.password = 'changed-by-hand';

  const account = await service.rebuild(CUSTOMER, { password });
  const rebuilt = org.dashboards.get('cc-system-health')!;
  t.equal(rebuilt.json.title, 'System Health');
  t.equal((rebuilt.json.panels as unknown[]).length, (TEMPLATES[0].json.panels as unknown[]).length, 'the template is re-applied');
  t.equal(rebuilt.version, 6, 'saved over the edited version');
  t.ok(org.dashboards.has('cc-data-services'), 'a deleted dashboard is back');
  t.same(org.folders.get(FOLDER_UID)!.permissions, [{ userId: account.remote.userId, permission: 1 }]);
  t.same(org.datasources.get(DATASOURCE_UID)!.jsonData, {
    authenticationType: 'jwt',
    clientEmail: 'cc-acme@msp-prod.iam.gserviceaccount.com',
    defaultProject: 'acme-prod',
    tokenUri: 'https://oauth2.googleapis.com/token',
  });
  t.same(org.datasources.get(DATASOURCE_UID)!.secureJsonData, { privateKey: '-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----\n' });
  t.ok(canLogIn(grafana, 'Acme Corp', password), 'the stored password is set again');
  t.ok(grafana.requests.some((r) => r.method === 'PUT' && r.path === `/api/datasources/uid/${DATASOURCE_UID}` && r.status === 200));
  t.same(grafana.unhandled, []);
});

t.test('objects made before CommandCenter (by hand) are taken over, not duplicated', async (t) => {
  const { grafana, service } = await setup(t);
  const org = grafana.addOrg('acme-corp');
  grafana.users.get(2)!.orgs.set(org.id, 'Admin'); // not the admin: user 2 is the admin (id 1 is Main Org.)
  const byHand = grafana.addUser({ login: 'Acme Corp', password: 'old-password' });
  org.datasources.set('manual', { id: 900, uid: 'manual', name: DATASOURCE_NAME, type: 'stackdriver', access: 'proxy', isDefault: true, jsonData: {}, secureJsonData: {} });
  org.folders.set(FOLDER_UID, { id: 901, uid: FOLDER_UID, title: 'System Health', version: 1, permissions: [] });

  const account = await service.initialise(CUSTOMER, { password: 'new-password-2B#' });
  t.equal(account.remote.userId, byHand.id, 'the existing login is used (412)');
  t.ok(canLogIn(grafana, 'Acme Corp', 'new-password-2B#'));
  t.same([...byHand.orgs], [[org.id, 'Viewer']], 'added to the customer organisation');
  t.equal(account.remote.datasourceUid, 'manual', 'the same-named data source is used (409)');
  t.match(JSON.stringify(org.dashboards.get('cc-system-health')!.json), /"uid":"manual"/);
  t.same(counts(grafana), { orgs: 2, users: 2, folders: 1, datasources: 1, dashboards: TEMPLATES.length });
  t.same(grafana.unhandled, []);
});

t.test('refusals are errors: wrong admin password, a foreign folder of the same title, a foreign dashboard name', async (t) => {
  const { grafana } = await setup(t);
  const wrong = grafanaMonitoringService({ url: grafana.url, adminUser: 'admin', adminPassword: 'nope', templates: TEMPLATES });
  await t.rejects(wrong.initialise(CUSTOMER), { name: 'GrafanaError', status: 401, message: 'Grafana GET /api/orgs/name/acme-corp answered 401: Invalid username or password' });

  const { grafana: g2, service } = await setup(t);
  const org = g2.addOrg('acme-corp');
  g2.users.get(2)!.orgs.set(org.id, 'Admin');
  org.folders.set('other', { id: 5, uid: 'other', title: 'System Health', version: 1, permissions: [] });
  await t.rejects(service.initialise(CUSTOMER), { status: 409, message: /folder titled 'System Health' that CommandCenter did not make/ });

  org.folders.delete('other');
  await service.initialise(CUSTOMER);
  const main = org.dashboards.get('cc-system-health')!;
  org.dashboards.delete('cc-system-health');
  org.dashboards.set('impostor', { ...main, uid: 'impostor' });
  await t.rejects(service.initialise(CUSTOMER), { status: 412, message: /already exists \(00-system-health.json; Rebuild Dashboard overwrites it\)/ });
  await service.rebuild(CUSTOMER, { password: 'whatever-3C$' });
  t.ok(org.dashboards.has('cc-system-health'));
  t.notOk(org.dashboards.has('impostor'), 'rebuild overwrites the same-named one');
  t.same([...grafana.unhandled, ...g2.unhandled], []);
});

t.test('the fake refuses, in the words of Grafana\'s OpenAPI document, what the document does not allow', async (t) => {
  const { grafana, service } = await setup(t);
  const { remote } = await service.initialise(CUSTOMER);
  const headers = { authorization: `Basic ${Buffer.from(`${ADMIN.adminUser}:${ADMIN.adminPassword}`).toString('base64')}`, 'content-type': 'application/json' };
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${grafana.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, message: ((await res.json()) as { message: string }).message };
  };
  t.same(await call('POST', `/api/orgs/${remote.orgId}/users`, { loginOrEmail: 'Acme Corp', role: 'Owner' }), {
    status: 400,
    message: 'Grafana HTTP API. (OpenAPI 0.0.1): addOrgUser (POST /orgs/{org_id}/users) body.role: "Owner" is not one of None, Viewer, Editor, Admin.',
  });
  t.same(await call('POST', '/api/admin/users', { login: 'x', password: 'long-enough', OrgId: remote.orgId }), {
    status: 400,
    message: 'Grafana HTTP API. (OpenAPI 0.0.1): adminCreateUser (POST /admin/users) body: field "OrgId" is not a field of this object (its fields: email, login, name, orgId, password)',
  }, 'Grafana would ignore the misspelt field and put the user in the default organisation');
  t.same(await call('GET', '/api/users/lookup?login=x'), {
    status: 400,
    message: 'Grafana HTTP API. (OpenAPI 0.0.1): getUserByLoginOrEmail (GET /users/lookup): query parameter "login" is not a parameter of this operation (it takes: loginOrEmail)',
  });
  t.same(await call('POST', '/api/folders/cc-system-health/permissions', { items: [{ userId: String(remote.userId), permission: 1 }] }), {
    status: 400,
    message: `Grafana HTTP API. (OpenAPI 0.0.1): updateFolderPermissions (POST /folders/{folder_uid}/permissions) body.items[0].userId: "${remote.userId}" is not an integer.`,
  });
  t.equal((await call('DELETE', '/api/folders/cc-system-health')).status, 400, 'an operation the adapter does not call is not in the excerpt');
  t.equal(takeViolations().length, 5, 'each recorded: a test file making such a call fails');
  t.same(grafana.unhandled, []);
});

t.test('the local service generates and keeps the password, with the built-in link', async (t) => {
  const local = localMonitoringService();
  const a = await local.initialise(CUSTOMER);
  t.match(a, { login: 'Acme Corp', dashboardUrl: '/systemhealth/kiosk/acme-corp', remote: {} });
  t.match(a.password, /^(?=.*[a-z])(?=.*[A-Z])(?=.*[2-9])(?=.*[-_.!#%+]).{24}$/);
  t.not((await local.initialise(CUSTOMER)).password, a.password, 'a new password without a stored one');
  t.equal((await local.initialise(CUSTOMER, { password: a.password })).password, a.password);
  t.equal((await local.rebuild(CUSTOMER, { password: a.password })).password, a.password);
});

t.test('configuration picks the adapter; keys are read per customer from a directory', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cc-gcm-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'acme-corp.json'), '{"client_email":"x"}');
  const keyOf = serviceAccountKeyFromDir(dir);
  t.equal(await keyOf(CUSTOMER), '{"client_email":"x"}');
  t.equal(await keyOf({ ...CUSTOMER, customer_id: 'globex' }), null, 'no file: impersonation');
  const settings = { GRAFANA_URL: 'http://127.0.0.1:1', GRAFANA_PUBLIC_URL: '', GRAFANA_ADMIN_USER: 'admin', GRAFANA_ADMIN_PASSWORD: 'x', GRAFANA_GCM_KEY_DIR: dir };
  t.equal(monitoringServiceFromConfig({ ...settings, MONITORING: 'local' }).name, 'local');
  t.equal(monitoringServiceFromConfig({ ...settings, MONITORING: 'grafana' }).name, 'grafana');
});
