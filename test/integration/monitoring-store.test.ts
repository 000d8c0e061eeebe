import t from 'tap';
import { testEnv } from '../helper.ts';
import { startFakeGrafana } from '../fakes/grafana-server.ts';
import { createSecretBox } from '@cc/shared/secret-box.ts';
import { findMonitoringAccount, findMonitoringPassword } from '@cc/shared/db/monitoring.ts';
import type { CloudProjects } from '@cc/shared/ports/cloud-projects.ts';
import { localMonitoringService } from '@cc/shared/adapters/monitoring/local.ts';
import { grafanaMonitoringService } from '@cc/shared/adapters/monitoring/real.ts';
import { provisionMonitoring } from '../../workers/src/monitoring/provision.ts';

const KEY = 'test-only-monitoring-key-0123456789abcdef';
const box = createSecretBox(KEY);
const projects: CloudProjects = { grantedProjects: async () => [{ project_id: 'acme-prod', project_name: 'Acme Production' }] };

t.test('the password is stored sealed, kept across runs and opened only with the key', async (t) => {
  const { pool } = await testEnv(t);
  const deps = { pool, service: localMonitoringService(), box, projects };
  t.equal(await findMonitoringPassword(pool, box, 'acme-corp'), null, 'nothing before the first initialise');

  const first = await provisionMonitoring(deps, 'acme-corp', 'initialise');
  t.same(first, { status: 'ready', login: 'Acme Corp', dashboard_url: '/systemhealth/kiosk/acme-corp' });
  const password = (await findMonitoringPassword(pool, box, 'acme-corp'))!;
  t.match(password, /^.{24}$/);

  const { rows } = await pool.query<{ row: string; password_sealed: string }>(
    `SELECT row_to_json(m)::text AS row, password_sealed FROM monitoring_account m WHERE customer_id = 'acme-corp'`,
  );
  t.notOk(rows[0].row.includes(password), 'no column holds the password in plain text');
  t.notOk(rows[0].row.includes(Buffer.from(password).toString('base64')), 'nor base64 of it');
  t.match(rows[0].password_sealed, /^v1\./);
  t.throws(() => createSecretBox('another-key-that-is-long-enough-0123456789').open(rows[0].password_sealed, 'acme-corp'), /not configured/);
  t.throws(() => box.open(rows[0].password_sealed, 'globex'), /does not authenticate/, 'bound to its customer');

  t.match(await findMonitoringAccount(pool, 'acme-corp'), {
    customer_id: 'acme-corp',
    backend: 'local',
    status: 'ready',
    login: 'Acme Corp',
    dashboard_url: '/systemhealth/kiosk/acme-corp',
    remote: {},
    rebuilt_at: null,
    last_error: null,
  });
  t.match((await findMonitoringAccount(pool, 'acme-corp'))!.initialised_at, /^\d{4}-\d{2}-\d{2}T/);

  await provisionMonitoring(deps, 'acme-corp', 'initialise');
  await provisionMonitoring(deps, 'acme-corp', 'rebuild');
  t.equal(await findMonitoringPassword(pool, box, 'acme-corp'), password, 'repeated runs keep the password');
  t.match((await findMonitoringAccount(pool, 'acme-corp'))!.rebuilt_at, /^\d{4}-/);

  await t.rejects(provisionMonitoring(deps, 'nobody-here', 'initialise'), { name: 'UnrecoverableError' });
});

t.test('a failed Grafana run is recorded without the password and completed by the retry', async (t) => {
  const { pool } = await testEnv(t);
  const grafana = await startFakeGrafana({ adminUser: 'admin', adminPassword: 'pw' });
  t.teardown(() => grafana.close());
  const deps = { pool, box, projects, service: grafanaMonitoringService({ url: grafana.url, adminUser: 'admin', adminPassword: 'pw' }) };

  grafana.failNext('POST', '/api/datasources', 503, 'Service Unavailable');
  await t.rejects(provisionMonitoring(deps, 'acme-corp', 'initialise'), { name: 'GrafanaError', message: /answered 503/ });
  const failed = (await findMonitoringAccount(pool, 'acme-corp'))!;
  t.match(failed, { status: 'failed', backend: 'grafana', last_error: 'Grafana POST /api/datasources answered 503: Service Unavailable', initialised_at: null });
  t.equal(await findMonitoringPassword(pool, box, 'acme-corp'), null, 'no password to show before a success');
  const { rows } = await pool.query<{ password_sealed: string }>(`SELECT password_sealed FROM monitoring_account WHERE customer_id = 'acme-corp'`);
  const stored = box.open(rows[0].password_sealed, 'acme-corp');
  t.equal(grafana.userByLogin('Acme Corp')!.password, stored, 'Grafana already has the stored password');

  const done = await provisionMonitoring(deps, 'acme-corp', 'initialise');
  const org = grafana.orgByName('acme-corp')!;
  t.equal(done.dashboard_url, `${grafana.url}/d/cc-system-health?orgId=${org.id}`);
  t.equal(await findMonitoringPassword(pool, box, 'acme-corp'), stored, 'the retry used the same password');
  t.equal(grafana.userByLogin('Acme Corp')!.password, stored);
  t.match(await findMonitoringAccount(pool, 'acme-corp'), { status: 'ready', last_error: null, remote: { orgId: org.id, folderUid: 'cc-system-health' } });
  t.same(grafana.unhandled, []);
});
