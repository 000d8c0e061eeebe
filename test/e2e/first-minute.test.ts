/**
 * Screens a customer meets in the first minute, over the seeded demo (no ticket, no billing data yet): the System
 * Health kiosk says "No open tickets" rather than drawing an empty 0–1 chart and keeps empty panels short; the license
 * and order cards opened directly link back to their list; the customer form's tabs stay whole on a phone; the
 * customer list keeps each billing account id on one line; the export card's title is at its siblings' level;
 * Reconcile says when there is no month to choose. Screenshots: test-results/screenshots/first-minute-*.png.
 */
import t from 'tap';
import type { Locator, Page } from 'playwright-core';
import { SCREENSHOT_DIR, signIn, startProduct } from './harness.ts';

const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOT_DIR}/first-minute-${name}.png`, fullPage: true });

/** How many lines the text `id` is drawn on inside `cell` (the distinct tops of the rectangles of its characters). */
async function linesOf(cell: Locator, id: string): Promise<number> {
  return cell.evaluate((el, id) => {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    const nodes: Text[] = [];
    for (let n = walker.nextNode(); n; n = walker.nextNode()) nodes.push(n as Text);
    const text = nodes.map((n) => n.data).join('');
    const start = text.indexOf(id);
    if (start < 0) return -1;
    // no named helper inside the page function: the test runner's transform would wrap it in a name the page lacks
    const range = document.createRange();
    let seen = 0;
    for (const n of nodes) {
      if (start >= seen && start <= seen + n.data.length) range.setStart(n, start - seen);
      if (start + id.length >= seen && start + id.length <= seen + n.data.length) range.setEnd(n, start + id.length - seen);
      seen += n.data.length;
    }
    return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
  }, id);
}

t.test('first-minute screens', async (t) => {
  const { base, browser } = await startProduct(t);
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  t.teardown(() => context.close());
  const page = await context.newPage();

  t.test('System Health kiosk with no open ticket', async (t) => {
    await signIn(page, base, 'alice@acme.example');
    await page.getByRole('navigation', { name: 'Side menu' }).waitFor();
    for (const [width, height] of [
      [390, 844],
      [1440, 900],
    ]) {
      await page.setViewportSize({ width, height });
      await page.goto(`${base}/systemhealth/kiosk/acme-corp?kiosk`);
      const tickets = page.getByRole('figure', { name: 'Open tickets by priority' });
      await tickets.waitFor();
      await page.waitForTimeout(1500);
      t.equal(await tickets.getByText('No open tickets').count(), 1, `${width}: the tickets panel says "No open tickets"`);
      t.equal(await tickets.getByTestId('health-chart').count(), 0, `${width}: no empty chart is drawn`);
      const heights = await page.getByTestId('health-panel').evaluateAll((panels) =>
        panels.filter((p) => p.querySelector('p')).map((p) => ({ title: p.querySelector('figcaption')?.textContent ?? '', height: p.getBoundingClientRect().height })),
      );
      t.ok(heights.length >= 2, `${width}: panels saying they are empty: ${JSON.stringify(heights)}`);
      for (const h of heights) t.ok(h.height < 200, `${width}: "${h.title}" keeps its own height (${Math.round(h.height)} px < 200)`);
      // a billing account id broken at its hyphens read as three values on a phone
      const idLines = await page
        .getByRole('region', { name: 'Billing data freshness' })
        .locator('tbody th')
        .evaluateAll((cells) =>
          cells.map((c) => {
            const range = document.createRange();
            range.selectNodeContents(c);
            return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
          }),
        );
      t.ok(idLines.length > 0 && idLines.every((n) => n === 1), `${width}: each billing account id on one line (lines per id: ${idLines.join(', ')})`);
      await shot(page, `kiosk-${width}`);
    }
  });

  t.test('license and order cards opened directly link back to their list', async (t) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${base}/workspacelicense/license`);
    const toList = page.getByRole('link', { name: 'Workspace License list' });
    await toList.waitFor();
    await shot(page, 'license-direct');
    await toList.click();
    await page.waitForURL(`${base}/workspacelicense`);
    t.equal(await page.getByRole('tab', { name: 'Existing' }).getAttribute('aria-selected'), 'true', 'the license link opens the Existing tab');

    await page.goto(`${base}/workspacelicense/order`);
    const toOrders = page.getByRole('link', { name: 'Orders tab of Workspace License' });
    await toOrders.waitFor();
    await shot(page, 'order-direct');
    await toOrders.click();
    await page.waitForURL(`${base}/workspacelicense`);
    await page.getByRole('tab', { name: 'Orders' }).waitFor();
    t.equal(await page.getByRole('tab', { name: 'Orders' }).getAttribute('aria-selected'), 'true', 'the order link opens the Orders tab');
  });

  t.test('Reconcile with no billing data says there is no month', async (t) => {
    await page.goto(`${base}/billing/reconcile`);
    const month = page.getByRole('combobox', { name: 'Invoice month' });
    await month.waitFor();
    await page.getByTestId('reconcile-no-month').waitFor({ timeout: 10_000 }).catch(() => undefined);
    const shown = await month.evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.textContent ?? '');
    t.equal(shown, 'No month with data', 'the Invoice month select says there is no month');
    t.equal(await page.getByText('No billing data has been ingested for this billing account yet').count(), 1, 'the page says why');
    await shot(page, 'reconcile-empty');
  });

  t.test('admin: customer list ids, customer form tabs on a phone, export card heading', async (t) => {
    const admin = await context.browser()!.newContext({ viewport: { width: 1440, height: 900 } });
    t.teardown(() => admin.close());
    const p = await admin.newPage();
    await signIn(p, base, 'admin@commandcenter.local');
    await p.getByRole('navigation', { name: 'Side menu' }).waitFor();

    for (const width of [1440, 768]) {
      await p.setViewportSize({ width, height: 900 });
      await p.goto(`${base}/customermanagement`);
      const cell = p.getByRole('row').filter({ hasText: 'Acme' }).getByRole('cell').filter({ hasText: '01A2B3-C4D5E6-F7A8B9' });
      await cell.waitFor();
      for (const id of ['01A2B3-C4D5E6-F7A8B9', '01FFEE-DDCCBB-AA9988']) t.equal(await linesOf(cell, id), 1, `${width}: ${id} on one line`);
      const box = await cell.evaluate((el) => ({ text: (el as HTMLElement).innerText, scroll: el.scrollWidth, client: el.clientWidth }));
      t.ok(box.scroll <= box.client + 1, `${width}: the ids stay inside their cell (${JSON.stringify(box)})`);
      await shot(p, `customers-${width}`);
    }

    await p.setViewportSize({ width: 1440, height: 900 });
    await p.goto(`${base}/customermanagement/update/acme-corp`);
    const exportsTitle = p.getByRole('heading', { name: 'AWS and Azure exports' });
    await exportsTitle.waitFor();
    const sizes = await p.getByRole('tabpanel').locator('h3').evaluateAll((hs) => hs.map((h) => `${h.textContent}: ${getComputedStyle(h).fontSize}`));
    const own = sizes.find((s) => s.startsWith('AWS and Azure exports'))!.split(': ')[1];
    const others = new Set(sizes.filter((s) => !s.startsWith('AWS and Azure exports')).map((s) => s.split(': ')[1]));
    t.ok(others.size === 1 && others.has(own), `the export card's title has its siblings' size (${sizes.join('; ')})`);
    await exportsTitle.scrollIntoViewIfNeeded();
    await p.screenshot({ path: `${SCREENSHOT_DIR}/first-minute-customer-exports.png` });

    await p.setViewportSize({ width: 390, height: 844 });
    // The update form has a fifth tab, the customer's notification channels (a channel belongs to a saved customer).
    for (const [form, path, count] of [
      ['new', '/customermanagement/new', 4],
      ['update', '/customermanagement/update/acme-corp', 5],
    ] as const) {
      await p.goto(`${base}${path}`);
      const tabs = p.getByRole('tablist', { name: 'Customer' }).getByRole('tab');
      await tabs.first().waitFor();
      await p.waitForTimeout(500);
      const cut = await tabs.evaluateAll((all) =>
        all.map((tab) => {
          const text = tab.querySelector('[data-component="text"]') ?? tab;
          const r = tab.getBoundingClientRect();
          return { name: tab.textContent, truncated: text.scrollWidth > text.clientWidth + 1, inside: r.left >= 0 && r.right <= window.innerWidth };
        }),
      );
      t.equal(cut.length, count, `390 ${form}: ${count} tabs`);
      for (const c of cut) t.ok(!c.truncated && c.inside, `390 ${form}: tab "${c.name}" whole and on the screen (${JSON.stringify(c)})`);
    }
    await p.screenshot({ path: `${SCREENSHOT_DIR}/first-minute-customer-tabs-390.png` });
  });
});
