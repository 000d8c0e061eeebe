/**
 * The real granted-projects adapter against in-process fakes of IAM Credentials and Resource Manager v3, each held to
 * Google's own discovery document (test/fakes/specs/): a call the document does not allow fails the test.
 */
import t from 'tap';
import { realCloudProjects } from './real.ts';
import { googleError, startGoogleFake, type Route } from '../../../../test/fakes/google-rest.ts';
import { takeViolations } from '../../../../test/fakes/spec-violations.ts';

const SA = 'commandcenter@acme-corp-ops.iam.gserviceaccount.com';
const READ_ONLY = 'https://www.googleapis.com/auth/cloud-platform.read-only';

const generateAccessToken: Route = (req, send) => {
  if (req.methodId !== 'iamcredentials.projects.serviceAccounts.generateAccessToken') return false;
  if (req.path !== `/v1/projects/-/serviceAccounts/${SA}:generateAccessToken`) send(404, googleError(404, 'Not found; Gaia id not found for email'));
  else send(200, { accessToken: 'sa-token', expireTime: '2026-11-22T20:00:00Z' });
  return true;
};

const searchProjects: Route = (req, send) => {
  if (req.methodId !== 'cloudresourcemanager.projects.search') return false;
  if (req.query.get('query') !== 'state:ACTIVE') return false;
  if (!req.query.get('pageToken')) {
    send(200, { projects: [{ name: 'projects/2', projectId: 'acme-shop-prod', displayName: 'Acme Shop', state: 'ACTIVE' }], nextPageToken: 'p2' });
  } else send(200, { projects: [{ name: 'projects/1', projectId: 'acme-analytics', state: 'ACTIVE' }] });
  return true;
};

async function fakes(t: { teardown(fn: () => Promise<void>): void }) {
  const iam = await startGoogleFake('iamcredentials.googleapis.com', [generateAccessToken], { token: 'provider-token', specs: ['iamcredentials.v1.json'] });
  const crm = await startGoogleFake('cloudresourcemanager.googleapis.com', [searchProjects], { token: 'sa-token', specs: ['cloudresourcemanager.v3.json'] });
  t.teardown(async () => {
    await iam.close();
    await crm.close();
  });
  const url = (f: typeof iam) => `http://127.0.0.1:${f.endpoint.port}`;
  return { iam, crm, iamCredentialsUrl: url(iam), resourceManagerUrl: url(crm) };
}

t.test('lists the projects the service account sees, across pages, as that account', async (t) => {
  const f = await fakes(t);
  const adapter = realCloudProjects({ sourceToken: async () => 'provider-token', iamCredentialsUrl: f.iamCredentialsUrl, resourceManagerUrl: f.resourceManagerUrl });
  const projects = await adapter.grantedProjects({ customer_id: 'acme-corp', service_account_email: SA });
  t.same(projects, [
    { project_id: 'acme-analytics', project_name: 'acme-analytics' },
    { project_id: 'acme-shop-prod', project_name: 'Acme Shop' },
  ]);
  t.same(f.iam.requests.map((r) => [r.methodId, r.body]), [['iamcredentials.projects.serviceAccounts.generateAccessToken', { scope: [READ_ONLY], lifetime: '300s' }]]);
  t.same(f.crm.requests.map((r) => `${r.methodId} ${r.query.get('pageToken') ?? ''}`), ['cloudresourcemanager.projects.search ', 'cloudresourcemanager.projects.search p2']);
  t.same([...f.iam.unhandled, ...f.crm.unhandled], []);

  const refused = realCloudProjects({ sourceToken: async () => 'wrong', iamCredentialsUrl: f.iamCredentialsUrl, resourceManagerUrl: f.resourceManagerUrl });
  await t.rejects(refused.grantedProjects({ customer_id: 'acme-corp', service_account_email: SA }), {
    message: /^generateAccessToken failed: 401 /,
    statusCode: 502,
  });
});

t.test('a body the IAM Credentials document does not name is refused in the document’s words', async (t) => {
  const f = await fakes(t);
  // A deliberately wrong call straight at the fake: `scopes` is not a field of GenerateAccessTokenRequest (`scope` is).
  const res = await fetch(`${f.iamCredentialsUrl}/v1/projects/-/serviceAccounts/${SA}:generateAccessToken`, {
    method: 'POST',
    headers: { authorization: 'Bearer provider-token', 'content-type': 'application/json' },
    body: JSON.stringify({ scopes: [READ_ONLY] }),
  });
  t.equal(res.status, 400);
  const violations = takeViolations();
  t.equal(violations.length, 1);
  t.match(violations[0], /scopes/, violations[0]);
});
