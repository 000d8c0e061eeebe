/**
 * Security headers, set by @fastify/helmet: a content security policy that allows what the product
 * loads and nothing else, no framing by other sites, no sniffing, no Referer leaks, HSTS over https; and who may
 * read /metrics and /docs in production.
 */
import t from 'tap';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, login, bearer } from '../helper.ts';

const directives = (csp: unknown) =>
  Object.fromEntries(
    String(csp)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name!, values]),
  );

t.test('the policy of every page: own scripts only, no framing, no sniffing', async (t) => {
  const app = await build(t, { seed: false });
  for (const url of ['/', '/usermanagement', '/v1/auth/me', '/docs/static/index.html', '/healthz']) {
    const res = await app.inject(url);
    const csp = directives(res.headers['content-security-policy']);
    t.same(csp['script-src'], ["'self'"], `${url}: no inline or foreign script`);
    t.same(csp['object-src'], ["'none'"], url);
    t.same(csp['base-uri'], ["'self'"], url);
    t.same(csp['frame-ancestors'], ["'none'"], url);
    t.same(csp['form-action'], ["'self'"], url);
    t.notOk(String(res.headers['content-security-policy']).includes('unsafe-eval'), url);
    t.equal(res.headers['x-frame-options'], 'DENY', url);
    t.equal(res.headers['x-content-type-options'], 'nosniff', url);
    t.equal(res.headers['referrer-policy'], 'same-origin', url);
    t.equal(res.headers['strict-transport-security'], undefined, `${url}: no HSTS over http`);
  }
  // What the app really loads: Primer and Plotly insert <style> elements, the System Health iframe may show the
  // customer's own dashboard address (any http(s) link an admin set), charts use data: and blob: images.
  const csp = directives((await app.inject('/')).headers['content-security-policy']);
  t.same(csp['style-src'], ["'self'", "'unsafe-inline'"]);
  t.same(csp['img-src'], ["'self'", 'data:', 'blob:']);
  t.same(csp['connect-src'], ["'self'"]);
  t.same(csp['frame-src'], ["'self'", 'https:', 'http:']);
  // The built page itself runs no inline script, so script-src 'self' is enough for it.
  t.notMatch(readFileSync('web/index.html', 'utf8'), /<script(?![^>]*\bsrc=)[^>]*>/, 'web/index.html has no inline script');
});

t.test('bull-board may load its fonts; the built-in dashboard may be framed by our own pages only', async (t) => {
  const app = await build(t);
  const admin = bearer(await login(app, 'admin@commandcenter.local'));
  const board = directives((await app.inject({ url: '/ops/queues/', headers: admin })).headers['content-security-policy']);
  t.same(board['style-src'], ["'self'", "'unsafe-inline'", 'https://fonts.googleapis.com']);
  t.same(board['font-src'], ["'self'", 'data:', 'https://fonts.gstatic.com']);
  const kiosk = await app.inject('/systemhealth/kiosk/acme-corp');
  t.same(directives(kiosk.headers['content-security-policy'])['frame-ancestors'], ["'self'"]);
  t.equal(kiosk.headers['x-frame-options'], 'SAMEORIGIN');
});

t.test('over https: HSTS and upgraded requests, no plain-http frames', async (t) => {
  const app = await build(t, { seed: false, config: { PUBLIC_URL: 'https://portal.example' } });
  const res = await app.inject('/healthz');
  t.equal(res.headers['strict-transport-security'], 'max-age=31536000');
  const csp = directives(res.headers['content-security-policy']);
  t.ok('upgrade-insecure-requests' in csp);
  t.same(csp['frame-src'], ["'self'", 'https:'], 'no http: frames on an https site');
});

t.test('a route’s own policy keeps the framing rule', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cc-playbooks-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, '1AcmePlaybookFolderId'));
  writeFileSync(join(dir, '1AcmePlaybookFolderId', 'Acme on-call.md'), '# Acme on-call\n');
  const app = await build(t, { config: { PLAYBOOK_DIR: dir } });
  const alice = bearer(await login(app, 'alice@acme.example'));
  const doc = await app.inject({ url: '/v1/gdrive/customers/acme-corp/folders/playbooks/Acme%20on-call.md', headers: alice });
  t.equal(doc.statusCode, 200);
  const csp = directives(doc.headers['content-security-policy']);
  t.ok('sandbox' in csp, 'the document’s sandbox');
  t.same(csp['frame-ancestors'], ["'none'"]);
});

t.test('the sign-in callback page runs its one script by hash and carries no token', async (t) => {
  const app = await build(t, { seed: false });
  const res = await app.inject('/v1/auth/oidc/callback?code=x&state=y');
  const csp = directives(res.headers['content-security-policy']);
  const script = /<script>([\s\S]*?)<\/script>/.exec(res.body)![1]!;
  t.same(csp['script-src'], [`'sha256-${createHash('sha256').update(script).digest('base64')}'`]);
  t.same(csp['default-src'], ["'none'"]);
  t.equal(res.headers['cache-control'], 'no-store');
});

t.test('/metrics: METRICS_TOKEN or an admin', async (t) => {
  const app = await build(t, { config: { METRICS_TOKEN: 'scrape-token-0123456789abcdef' } });
  const metrics = (headers: Record<string, string> = {}) => app.inject({ url: '/metrics', headers });
  t.equal((await metrics()).statusCode, 401, 'anonymous');
  t.equal((await metrics({ authorization: 'Bearer wrong' })).statusCode, 401, 'a wrong token');
  const scraped = await metrics({ authorization: 'Bearer scrape-token-0123456789abcdef' });
  t.equal(scraped.statusCode, 200, 'Prometheus with the token');
  t.match(scraped.body, /cc_queue_jobs/);
  t.equal((await metrics(bearer(await login(app, 'alice@acme.example')))).statusCode, 403, 'a customer user');
  t.equal((await metrics(bearer(await login(app, 'admin@commandcenter.local')))).statusCode, 200, 'an admin');
});

t.test('in production: /metrics for admins only without a METRICS_TOKEN, /docs off unless DOCS=on', async (t) => {
  const production = { NODE_ENV: 'production', OIDC: 'real', OIDC_ISSUER: 'http://127.0.0.1:9/idp', OIDC_CLIENT_SECRET: 'provider-issued-secret' } as const;
  const app = await build(t, { config: production });
  t.equal((await app.inject('/metrics')).statusCode, 401, 'metrics not open');
  t.equal((await app.inject({ url: '/metrics', headers: bearer(await login(app, 'admin@commandcenter.local')) })).statusCode, 200, 'an admin reads them');
  t.equal((await app.inject('/docs/json')).statusCode, 404, 'no API docs');
  t.equal((await app.inject('/docs')).statusCode, 404);
  const docs = await build(t, { seed: false, config: { ...production, DOCS: 'on' } });
  t.equal((await docs.inject('/docs/json')).statusCode, 200, 'DOCS=on serves them');
});
