/**
 * The System Health routes load within the web app's budget (≤ 450 KB of gzipped JavaScript on first load), weighed
 * from the build under test as `make bench` weighs every route: the built-in dashboard with the Plotly it draws on
 * arrival, /systemhealth with the dashboard its frame shows.
 */
import t from 'tap';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { routeWeights, TARGET } from '../bench/web-bundle.ts';

const webDir = join(process.env.WEB_DIST ?? 'web/dist', '..');

t.test('System Health and its built-in dashboard stay within the first-load budget', async (t) => {
  t.ok(existsSync(join(webDir, 'dist/.vite/manifest.json')), 'a build to weigh (npm run build -w web)');
  const weights = new Map(routeWeights(webDir).map((r) => [r.path, r.gzipBytes]));
  for (const path of ['/systemhealth', '/systemhealth/kiosk/:id']) {
    const bytes = weights.get(path);
    t.ok(bytes !== undefined && bytes <= TARGET, `${path}: ${((bytes ?? 0) / 1024).toFixed(1)} KB gzipped, at most ${TARGET / 1024} KB`);
  }
});
