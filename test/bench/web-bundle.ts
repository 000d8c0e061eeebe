/**
 * Gzipped JavaScript per route of the built web app: what a browser opening the route fetches —
 * the entry's static imports, the route's lazy page chunk with its static imports, and what the page loads at once
 * on first paint (Plotly for the pages that draw a chart on arrival, the 2D graph on /inventory/view).
 * Read from Vite's manifest (web/dist/.vite/manifest.json, `make build`); routes come from web/src/app/routes.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

/**
 * Modules a route's page imports dynamically and then loads at once, by manifest key (regex): the spend chart on
 * the billing home page, the System Health charts (the built-in dashboard draws them on arrival, and /systemhealth
 * shows that dashboard in its frame, so it fetches the dashboard's page too), the 2D graph (the default tab of
 * /inventory/view).
 */
const FIRST_PAINT: Record<string, RegExp> = {
  '/': /plotly/,
  '/systemhealth': /plotly|features\/monitoring\/KioskPage\.tsx$/,
  '/systemhealth/kiosk/:id': /plotly/,
  '/inventory/view': /node_modules\/force-graph\//,
};

/** What any route may weigh on first load, gzipped, printed beside its figure (1 KB = 1,024 bytes). */
export const TARGET = 450 * 1024;

/** Route path → page module (web/src/...) as routes.ts declares them. */
export function routePages(routesSource: string): { path: string; module: string }[] {
  const modules = new Map<string, string>();
  for (const m of routesSource.matchAll(/const (\w+) = lazy(?:Page)?\(\(\) => import\('\.\.\/([^']+)'\)/g)) modules.set(m[1], `src/${m[2]}`);
  const out: { path: string; module: string }[] = [];
  for (const m of routesSource.matchAll(/\{ path: '([^']+)',[^\n]*?page: (\w+) \}/g)) {
    const module = modules.get(m[2]);
    if (module) out.push({ path: m[1], module });
  }
  return out;
}

function closure(manifest: Manifest, keys: string[], into = new Set<string>()): Set<string> {
  for (const k of keys) {
    const chunk = manifest[k];
    if (!chunk || into.has(chunk.file)) continue;
    into.add(chunk.file);
    closure(manifest, chunk.imports ?? [], into);
  }
  return into;
}

export interface RouteWeight {
  path: string;
  files: number;
  gzipBytes: number;
}

export function routeWeights(webDir: string): RouteWeight[] {
  const manifest = JSON.parse(readFileSync(join(webDir, 'dist/.vite/manifest.json'), 'utf8')) as Manifest;
  const entry = Object.keys(manifest).filter((k) => manifest[k].isEntry);
  const gz = new Map<string, number>();
  const size = (file: string) => {
    if (!gz.has(file)) gz.set(file, gzipSync(readFileSync(join(webDir, 'dist', file)), { level: 9 }).length);
    return gz.get(file)!;
  };
  // The sign-in page is fetched on its own when shown (app/App.tsx), so it is weighed like a route.
  const pages = [
    { path: '(entry only)', module: '' },
    { path: '(sign-in page)', module: 'src/features/session/LoginPage.tsx' },
    ...routePages(readFileSync(join(webDir, 'src/app/routes.ts'), 'utf8')),
  ];
  return pages.map(({ path, module }) => {
    const extra = FIRST_PAINT[path];
    const keys = [...entry, ...(module ? [module] : []), ...(extra ? Object.keys(manifest).filter((k) => extra.test(k)) : [])];
    const files = [...closure(manifest, keys)].filter((f) => f.endsWith('.js'));
    // A bundle emitted as a plain asset (`?url`) is not a chunk with imports: count it by its file name.
    if (extra) for (const [k, c] of Object.entries(manifest)) if (extra.test(k) && !files.includes(c.file) && c.file.endsWith('.js')) files.push(c.file);
    return { path, files: files.length, gzipBytes: files.reduce((s, f) => s + size(f), 0) };
  });
}

export function printRouteWeights(webDir = 'web'): void {
  if (!existsSync(join(webDir, 'dist/.vite/manifest.json'))) {
    console.log('web bundle: no web/dist/.vite/manifest.json (run `make build` first)');
    return;
  }
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  const weights = routeWeights(webDir);
  for (const r of weights) {
    const beside = `  target ≤ ${kb(TARGET)}: ${r.gzipBytes <= TARGET ? 'met' : `MISSED by ${kb(r.gzipBytes - TARGET)}`}`;
    console.log(`${r.path.padEnd(32)} ${kb(r.gzipBytes).padStart(10)} gzipped JS in ${r.files} files${beside}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) printRouteWeights();
