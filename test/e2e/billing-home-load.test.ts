/**
 * The billing home's loading path in Chromium (docs/decisions-billing.md, "The billing home's first chart"): on a
 * reload with a session, the session check (POST /v1/auth/refresh) is sent first, as the app starts, and the customer
 * document, the page's code, Plotly and the chart are requested while it is in flight, each once; the page then shows without a Suspense
 * fallback (no "Loading" in the content area before the chart); and a warm reload takes every hashed file from the
 * browser's cache without asking the server.
 */
import t from 'tap';
import type { Page, Request } from 'playwright-core';
import { addDays, billingToday } from '@cc/shared/time.ts';
import { gcpGeneratedSource } from '@cc/shared/adapters/bigquery/local.ts';
import { runIngest } from '../../workers/src/billing-ingest/ingest.ts';
import { startProduct, signIn } from './harness.ts';

const ACME = { customerId: 'acme-corp', billingAccountId: '01A2B3-C4D5E6-F7A8B9' };
/** How long the test holds the session check's answer: long enough for every preloaded request to be sent. */
const REFRESH_HELD_MS = 1_500;
const DRAWN = 'cc:drawn:billing-chart';

/** Records, from the first script on, whether the content area ever shows the page's loading spinner alone. */
const WATCH_CONTENT = `
  window.__ccContentLoading = false;
  new MutationObserver(() => {
    const main = document.querySelector('main#content');
    if (main && main.textContent.trim() === 'Loading') window.__ccContentLoading = true;
  }).observe(document, { childList: true, subtree: true, characterData: true });
`;

async function waitDrawn(page: Page): Promise<void> {
  await page.waitForFunction((name) => performance.getEntriesByName(name, 'mark').length > 0, DRAWN, { timeout: 60_000, polling: 20 });
}

t.test('billing home: requests in parallel with the session check, no fallback, cached files', async (t) => {
  const { base, browser, app } = await startProduct(t);
  const today = billingToday();
  await runIngest({ pool: app.env.pool, ...ACME, sourceKind: 'gcp-generated', source: gcpGeneratedSource({ ...ACME, currency: 'EUR', from: addDays(today, -40), to: today }) });

  const login = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  t.teardown(() => login.close());
  const first = await login.newPage();
  await signIn(first, base, 'alice@acme.example');
  await waitDrawn(first);
  const storageState = await login.storageState();

  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, storageState });
  t.teardown(() => context.close());
  await context.addInitScript(WATCH_CONTENT);
  const page = await context.newPage();
  const sent: { url: string; at: number }[] = [];
  page.on('request', (r: Request) => sent.push({ url: new URL(r.url()).pathname, at: Date.now() }));
  let refreshAnswered = 0;
  await page.route('**/v1/auth/refresh', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, REFRESH_HELD_MS));
    refreshAnswered = Date.now();
    await route.continue();
  });

  await page.goto(base);
  await waitDrawn(page);
  const chartPath = `/v2/billing/aggregated/by_service/chart/${ACME.customerId}`;
  const before = (path: string) => sent.filter((s) => s.url === path && s.at < refreshAnswered).length;
  t.equal(before(`/v1/customers/${ACME.customerId}/`), 1, 'the customer document is asked for during the session check');
  t.equal(before(chartPath), 1, 'the chart is asked for during the session check');
  t.ok(sent.some((s) => /\/assets\/BillingPage-[\w-]+\.js$/.test(s.url) && s.at < refreshAnswered), "the page's code is fetched during the session check");
  t.ok(sent.some((s) => /\/assets\/plotly-partial-[\w-]+\.js$/.test(s.url) && s.at < refreshAnswered), 'Plotly is fetched during the session check');
  const firstSent = (path: string) => sent.findIndex((s) => s.url === path);
  t.ok(firstSent('/v1/auth/refresh') >= 0 && firstSent('/v1/auth/refresh') < firstSent(`/v1/customers/${ACME.customerId}/`), 'the session check is sent first, as the app starts');
  t.equal(sent.filter((s) => s.url === '/v1/auth/refresh').length, 1, 'one session check');
  t.equal(sent.filter((s) => s.url === chartPath).length, 1, 'the page draws the preloaded answer: the chart is asked for once');
  t.equal(sent.filter((s) => s.url === `/v1/customers/${ACME.customerId}/`).length, 1, 'the customer document is asked for once');
  t.equal(await page.evaluate(() => (window as unknown as { __ccContentLoading: boolean }).__ccContentLoading), false, 'no loading spinner in place of the page');

  // Warm: the same page again in the same context.
  await page.unroute('**/v1/auth/refresh');
  await page.goto('about:blank');
  await page.goto(base);
  await waitDrawn(page);
  const assets = await page.evaluate(() =>
    (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      .filter((e) => new URL(e.name).pathname.startsWith('/assets/'))
      .map((e) => ({ file: new URL(e.name).pathname, transferSize: e.transferSize })),
  );
  t.ok(assets.length > 5, `the warm load used ${assets.length} files from assets/`);
  t.same(
    assets.filter((a) => a.transferSize > 0),
    [],
    'no file from assets/ went to the server (not even a 304): each is kept as immutable',
  );
});
