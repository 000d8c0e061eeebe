/**
 * The built web app's caching: files under assets/ carry their content hash in the name, so they are kept for a
 * year without a check (a warm page load fetches nothing it already has); index.html and other files are checked
 * on every load, so a deploy is seen at once.
 */
import t from 'tap';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from '../helper.ts';

const dist = mkdtempSync(join(tmpdir(), 'cc-web-dist-'));
t.teardown(() => rmSync(dist, { recursive: true, force: true }));
mkdirSync(join(dist, 'assets'));
writeFileSync(join(dist, 'index.html'), '<!doctype html><title>app</title><script type="module" src="/assets/index-Ab_c-123.js"></script>');
writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
writeFileSync(join(dist, 'assets', 'index-Ab_c-123.js'), 'console.log(1)');
writeFileSync(join(dist, 'assets', 'index-Ab_c-123.js.map'), '{}');
writeFileSync(join(dist, 'assets', 'BillingPage-Fg-dwSJY.css'), 'p{}');

t.test('hashed assets are immutable, the page and unhashed files are checked each time', async (t) => {
  const app = await build(t, { seed: false, config: { WEB_DIST: dist } });
  const get = async (url: string, accept = '*/*') => {
    const res = await app.inject({ method: 'GET', url, headers: { accept } });
    return { status: res.statusCode, cacheControl: res.headers['cache-control'] };
  };
  const immutable = { status: 200, cacheControl: 'public, max-age=31536000, immutable' };
  const checked = { status: 200, cacheControl: 'no-cache' };
  t.same(await get('/assets/index-Ab_c-123.js'), immutable);
  t.same(await get('/assets/index-Ab_c-123.js.map'), immutable);
  t.same(await get('/assets/BillingPage-Fg-dwSJY.css'), immutable);
  t.same(await get('/', 'text/html'), checked);
  t.same(await get('/index.html', 'text/html'), checked);
  t.same(await get('/inventory/view', 'text/html'), checked, 'a client route gets index.html, checked each time');
  t.same(await get('/favicon.svg'), checked);
  t.same((await app.inject({ method: 'GET', url: '/v1/nothing-here' })).json(), { detail: 'Route GET /v1/nothing-here not found' });
});
