/** The real granted-projects adapter against an in-process fake of IAM Credentials and Resource Manager v3. */
import t from 'tap';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { realCloudProjects } from './real.ts';

const SA = 'commandcenter@acme-corp-ops.iam.gserviceaccount.com';

t.test('lists the projects the service account sees, across pages, as that account', async (t) => {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const url = new URL(req.url!, 'http://x');
      seen.push(`${req.method} ${url.pathname} ${req.headers.authorization}`);
      const json = (status: number, data: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(data));
      };
      if (req.method === 'POST' && url.pathname === `/v1/projects/-/serviceAccounts/${SA}:generateAccessToken`) {
        t.same(JSON.parse(body), { scope: ['https://www.googleapis.com/auth/cloud-platform.read-only'], lifetime: '300s' });
        if (req.headers.authorization !== 'Bearer provider-token') return json(403, { error: { code: 403, message: 'Permission denied', status: 'PERMISSION_DENIED' } });
        return json(200, { accessToken: 'sa-token', expireTime: '2026-11-22T20:00:00Z' });
      }
      if (req.method === 'GET' && url.pathname === '/v3/projects:search') {
        if (req.headers.authorization !== 'Bearer sa-token') return json(401, { error: { code: 401, message: 'bad token', status: 'UNAUTHENTICATED' } });
        t.equal(url.searchParams.get('query'), 'state:ACTIVE');
        if (!url.searchParams.get('pageToken')) {
          return json(200, { projects: [{ name: 'projects/2', projectId: 'acme-shop-prod', displayName: 'Acme Shop', state: 'ACTIVE' }], nextPageToken: 'p2' });
        }
        return json(200, { projects: [{ name: 'projects/1', projectId: 'acme-analytics', state: 'ACTIVE' }] });
      }
      json(404, { error: { code: 404, message: 'unexpected request', status: 'NOT_FOUND' } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const adapter = realCloudProjects({ sourceToken: async () => 'provider-token', iamCredentialsUrl: base, resourceManagerUrl: base });
  const projects = await adapter.grantedProjects({ customer_id: 'acme-corp', service_account_email: SA });
  t.same(projects, [
    { project_id: 'acme-analytics', project_name: 'acme-analytics' },
    { project_id: 'acme-shop-prod', project_name: 'Acme Shop' },
  ]);
  t.same(seen, [
    `POST /v1/projects/-/serviceAccounts/${SA}:generateAccessToken Bearer provider-token`,
    'GET /v3/projects:search Bearer sa-token',
    'GET /v3/projects:search Bearer sa-token',
  ]);

  const refused = realCloudProjects({ sourceToken: async () => 'wrong', iamCredentialsUrl: base, resourceManagerUrl: base });
  await t.rejects(refused.grantedProjects({ customer_id: 'acme-corp', service_account_email: SA }), {
    message: 'generateAccessToken failed: 403 Permission denied',
    statusCode: 502,
  });
});
