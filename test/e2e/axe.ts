/**
 * The axe-core scan the accessibility E2E files share: WCAG 2.0/2.1 A and AA, serious or critical violations only,
 * every tour route as one demo user at 1440 px and the phone's open menu. Split over two files so that each stays
 * well inside tap's per-file time limit (the four users in one file took 219 s of 300).
 */
import type { Test } from 'tap';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { signIn } from './harness.ts';
import { visit } from './tour.ts';

const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

export async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_21_AA).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

/** The accessible names of the controls Tab reaches, in order, until `stop` is reached or `max` presses. */
export async function tabThrough(page: Page, stop: (name: string) => boolean, max = 120): Promise<string[]> {
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

/** Every route as `email`, then the phone's open menu: no serious or critical violation anywhere. */
export async function scanAsUser(t: Test, browser: Browser, base: string, paths: string[], email: string): Promise<void> {
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
    await page.setViewportSize({ width: 390, height: 844 });
    await visit(page, base, '/');
    await page.getByRole('button', { name: 'Menu' }).click();
    t.same(await seriousViolations(page), [], 'phone, menu open');
  });
}
