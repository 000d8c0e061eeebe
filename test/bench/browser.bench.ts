/**
 * What a person waits for in the browser: Chromium (playwright-core with the system's chromium, as the E2E run it)
 * opens the billing home, System Health (its built-in dashboard, the page its iframe shows), Inventory and the
 * inventory graph, cold and warm, and this prints the time from the navigation's start to the page's
 * `cc:drawn:<name>` mark (set by the web app when the page's data is first drawn: web/src/common/drawn.ts) and
 * Largest Contentful Paint, beside a blank page's time measured the same way in the same run.
 *
 * - cold: a new browser context each time (an empty HTTP cache: every script, style and answer fetched), signed in
 *   through its stored cookie and session hint. The server's caches (the chart cache) are as the earlier loads left
 *   them, as for a person arriving after a colleague.
 * - warm: the same page loaded again in that context (scripts from the HTTP cache).
 *
 * BENCH_BROWSER_RUNS (default 5) loads of each; the median and the slowest are printed. BENCH_GRAPH_NODES (default
 * 5,000) sets the inventory estate (its table and graph). Needs the built web app (`npm run build -w web`: web/dist,
 * or WEB_DIST) and Chromium (CHROMIUM_PATH, default /usr/bin/chromium). Times are reported, not asserted.
 */
import { createServer, type Server } from 'node:http';
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { addDays, billingToday } from '@cc/shared/time.ts';
import { gcpGeneratedSource } from '@cc/shared/adapters/bigquery/local.ts';
import { localEstate } from '@cc/shared/adapters/inventory/local-estate.ts';
import { replaceSnapshot, startSyncRun } from '@cc/shared/db/inventory/snapshot.ts';
import { runIngest } from '../../workers/src/billing-ingest/ingest.ts';
import { buildApp } from '../../api/src/app.ts';
import { CHROMIUM_ARGS, signIn } from '../e2e/harness.ts';
import { freePort } from '../faults.ts';
import { fmt, type BenchContext } from './context.ts';

const ACME = { customerId: 'acme-corp', billingAccountId: '01A2B3-C4D5E6-F7A8B9' };
const VIEWPORT = { width: 1400, height: 1000 };

interface Target {
  label: string;
  path: string;
  /** The mark the page sets when its data is drawn. */
  mark: string;
  target?: string;
}

interface Load {
  drawn: number;
  lcp: number;
}

/** An estate of the local generator cut to `assets` assets. */
function estate(customerId: string, assets: number) {
  const projects = (n: number) => Array.from({ length: n }, (_, i) => ({ project_id: `${customerId}-p${String(i).padStart(5, '0')}`, project_name: `Bench project ${i}` }));
  const probe = localEstate(customerId, projects(20), 'EUR').assets.length / 20;
  for (let n = Math.ceil((assets * 1.2) / probe) + 1; ; n = Math.ceil(n * 1.5)) {
    const e = localEstate(customerId, projects(n), 'EUR');
    if (e.assets.length >= assets) return { assets: e.assets.slice(0, assets), recommendations: e.recommendations };
  }
}

/** A page with one line of text and the same mark, set by an inline script as its body ends. */
async function blankServer(): Promise<{ server: Server; base: string }> {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>blank</title></head><body><p>A blank page.</p><script>performance.mark('cc:drawn:blank')</script></body></html>`;
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' });
    res.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Navigates and reads the drawn mark's time and the LCP so far, both from the navigation's start. */
async function measure(page: Page, url: string, mark: string): Promise<Load> {
  await page.goto(url, { waitUntil: 'commit' });
  await page.waitForFunction((name) => performance.getEntriesByName(name, 'mark').length > 0, mark, { timeout: 120_000, polling: 20 });
  return page.evaluate(
    (name) =>
      new Promise<Load>((resolve) => {
        const drawn = performance.getEntriesByName(name, 'mark')[0]!.startTime;
        let lcp = 0;
        const observer = new PerformanceObserver((list) => {
          for (const e of list.getEntries()) lcp = Math.max(lcp, e.startTime);
        });
        observer.observe({ type: 'largest-contentful-paint', buffered: true });
        // the buffered entries arrive in a task of their own
        setTimeout(() => {
          observer.disconnect();
          resolve({ drawn, lcp });
        }, 100);
      }),
    mark,
  );
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

export async function browserBench(ctx: BenchContext): Promise<void> {
  const runs = Number(process.env.BENCH_BROWSER_RUNS ?? 5);
  const graphNodes = Number(process.env.BENCH_GRAPH_NODES ?? 5_000);
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  const webDist = process.env.WEB_DIST ?? ctx.config.WEB_DIST;
  if (!existsSync(`${webDist}/index.html`) || !existsSync(executablePath)) {
    console.log(`browser: skipped (needs ${webDist} from \`npm run build -w web\` and Chromium at ${executablePath})`);
    return;
  }
  const { pool } = ctx;
  // Acme's billing as the ingest benchmark left it (BENCH_ROWS lines), or else three months of generated billing (the
  // billing home and System Health); an estate of BENCH_GRAPH_NODES assets for Inventory and the graph.
  const today = billingToday();
  const t0 = performance.now();
  const lines = Number((await pool.query<{ n: string }>(`SELECT count(*)::text AS n FROM cost_line WHERE billing_account_id = $1`, [ACME.billingAccountId])).rows[0]!.n);
  const billing = lines > 0 ? `the ingest benchmark's ${fmt(lines)} billing lines` : '90 days of generated billing';
  if (lines === 0) await runIngest({ pool, ...ACME, sourceKind: 'gcp-generated', source: gcpGeneratedSource({ ...ACME, currency: 'EUR', from: addDays(today, -90), to: today }) });
  await replaceSnapshot(pool, ACME.customerId, await startSyncRun(pool, ACME.customerId, 'local'), estate(ACME.customerId, graphNodes));
  await pool.query('ANALYZE');
  const loaded = performance.now() - t0;

  // PUBLIC_URL: the address the browser uses (the same-origin check compares against it)
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const app = await buildApp({ ...ctx.config, PUBLIC_URL: base, PORT: port, WEB_DIST: webDist }, { logger: false });
  await app.listen({ port, host: '127.0.0.1' });
  const blank = await blankServer();
  let browser: Browser | null = null;
  try {
    browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
    // Signed in once through the screens; each cold context starts from that cookie and session hint.
    const login = await browser.newContext({ viewport: VIEWPORT });
    const first = await login.newPage();
    await signIn(first, base, 'alice@acme.example');
    await first.getByRole('navigation', { name: 'Side menu' }).waitFor();
    const storageState = await login.storageState();
    await login.close();

    const targets: Target[] = [
      { label: 'blank page (no script)', path: `${blank.base}/`, mark: 'cc:drawn:blank' },
      { label: 'billing home: the spend chart', path: `${base}/`, mark: 'cc:drawn:billing-chart', target: 'warm ≤ 500 ms, cold ≤ 1,500 ms' },
      { label: 'System Health dashboard: first chart', path: `${base}/systemhealth/kiosk/${ACME.customerId}?kiosk`, mark: 'cc:drawn:health-chart' },
      { label: 'Inventory: the asset table', path: `${base}/inventory`, mark: 'cc:drawn:inventory-table' },
      { label: `inventory graph (${fmt(graphNodes)} assets)`, path: `${base}/inventory/view`, mark: 'cc:drawn:inventory-graph' },
    ];
    const results: { t: Target; cold: Load[]; warm: Load[] }[] = [];
    for (const t of targets) {
      const cold: Load[] = [];
      const warm: Load[] = [];
      // one unmeasured load first: the server's first answers (plans, caches) are not what is measured
      for (let i = 0; i <= runs; i++) {
        const context: BrowserContext = await browser.newContext({ viewport: VIEWPORT, storageState });
        try {
          const page = await context.newPage();
          const c = await measure(page, t.path, t.mark);
          await page.goto('about:blank');
          const w = await measure(page, t.path, t.mark);
          if (i > 0) {
            cold.push(c);
            warm.push(w);
          }
        } finally {
          await context.close();
        }
      }
      results.push({ t, cold, warm });
    }

    console.log(
      `${billing} and ${fmt(graphNodes)} assets (loaded ${fmt(loaded / 1000, 1)} s); Chromium headless, ${VIEWPORT.width}×${VIEWPORT.height}, ${runs} loads each (median, slowest); drawn = the page's mark, LCP = Largest Contentful Paint, both from navigation start`,
    );
    const ms = (xs: number[]) => `${fmt(median(xs)).padStart(6)} ms (${fmt(Math.max(...xs))})`;
    for (const { t, cold, warm } of results) {
      console.log(
        `${t.label.padEnd(40)} cold: drawn ${ms(cold.map((l) => l.drawn))}  LCP ${ms(cold.map((l) => l.lcp))}   warm: drawn ${ms(warm.map((l) => l.drawn))}  LCP ${ms(warm.map((l) => l.lcp))}${t.target ? `   [target ${t.target}]` : ''}`,
      );
    }
  } finally {
    await browser?.close();
    await app.close();
    await new Promise((resolve) => blank.server.close(resolve));
  }
}
