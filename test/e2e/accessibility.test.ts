/**
 * Accessibility: every route, as each demo user, scanned with axe-core for WCAG 2.0/2.1 A and AA — no serious or
 * critical violation — and the keyboard alone reaching the billing dashboard's controls and a form's fields and
 * Save. The violations found are listed in the test output (rule, impact, the first elements).
 */
import t from 'tap';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { signIn, startProduct } from './harness.ts';
import { TOUR_USERS, tourPaths, visit } from './tour.ts';

const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_21_AA).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

/** The accessible names of the controls Tab reaches, in order, until `stop` is reached or `max` presses. */
async function tabThrough(page: Page, stop: (name: string) => boolean, max = 120): Promise<string[]> {
  const seen: string[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const name = await page.evaluate(() => {
      const e = document.activeElement as HTMLElement | null;
      if (!e || e === document.body) return '';
      const labelled = e.getAttribute('aria-labelledby');
      const byId = labelled ? labelled.split(' ').map((id) => document.getElementById(id)?.textContent ?? '').join(' ') : '';
      const label = 'labels' in e ? [...((e as HTMLInputElement).labels ?? [])].map((l) => l.textContent).join(' ') : '';
      return (e.getAttribute('aria-label') || byId || label || e.textContent || e.tagName).trim().replace(/\s+/g, ' ').slice(0, 60);
    });
    seen.push(name);
    if (stop(name)) break;
  }
  return seen;
}

t.test('accessibility', async (t) => {
  const { base, browser, app } = await startProduct(t);
  const paths = await tourPaths(app.env.pool);

  for (const email of TOUR_USERS) {
    await t.test(`${email}: every route without serious or critical WCAG 2.1 AA violations`, async (t) => {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      t.teardown(() => context.close());
      const page = await context.newPage();
      await signIn(page, base, email);
      await page.getByRole('navigation', { name: 'Side menu' }).waitFor();
      for (const path of paths) {
        await visit(page, base, path);
        const found = await seriousViolations(page);
        t.same(found, [], `${path}: ${found.length} serious or critical`);
      }
      // the folded menu of a phone too
      await page.setViewportSize({ width: 390, height: 844 });
      await visit(page, base, '/');
      await page.getByRole('button', { name: 'Menu' }).click();
      t.same(await seriousViolations(page), [], 'phone, menu open');
    });
  }

  await t.test('the keyboard alone: the billing dashboard and a form', async (t) => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    t.teardown(() => context.close());
    const page = await context.newPage();
    await signIn(page, base, 'alice@acme.example');
    await page.getByRole('heading', { name: 'Billing', level: 1 }).waitFor();
    await page.waitForLoadState('networkidle');

    const dashboard = await tabThrough(page, (n) => n === 'Settings');
    t.equal(dashboard[0], 'Skip to content', 'a skip link first');
    for (const control of ['Customer', 'Billing account', 'Billing', 'Viewers', 'Alerts', 'Reconcile with invoice', 'Export', 'Settings']) {
      t.ok(dashboard.includes(control), `Tab reaches ${control}`);
    }
    // Enter on the focused Settings opens the drawer, Escape closes it
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    t.pass('Settings opens and closes by keyboard');

    await visit(page, base, '/supportrequest/new');
    const form = await tabThrough(page, (n) => n === 'Save');
    for (const field of ['Summary', 'Description', 'Save']) t.ok(form.some((n) => n.startsWith(field)), `Tab reaches ${field}`);
  });
});
