/**
 * One demo user's tour for the phone E2E files: every route at 390 px without sideways scrolling, pictured at 390
 * (and, for the admin, who reaches every route, at 768 and 1440 px). The users are split over phone.test.ts and
 * phone-users.test.ts so that each file stays well inside tap's per-file time limit.
 */
import type { Test } from 'tap';
import type { Browser } from 'playwright-core';
import { signIn, SCREENSHOT_DIR } from './harness.ts';
import { shotName, visit } from './tour.ts';

const PHONE = { width: 390, height: 844 };

/** Every route as `email`: the page is never wider than a 390 px screen. */
export async function phoneTour(t: Test, browser: Browser, base: string, paths: string[], email: string): Promise<void> {
  await t.test(`${email}: no route scrolls sideways at 390 px`, async (t) => {
    const context = await browser.newContext({ viewport: PHONE });
    t.teardown(() => context.close());
    const page = await context.newPage();
    await signIn(page, base, email);
    // signed in: the menu button (or, on a screen without it, the side menu) is there
    await page.getByRole('button', { name: 'Menu' }).or(page.getByRole('navigation', { name: 'Side menu' })).first().waitFor();
    const user = email.split('@')[0];
    // every width for the admin (who reaches every route); the others on a phone
    const widths = user === 'admin' ? [390, 768, 1440] : [390];
    for (const path of paths) {
      for (const width of widths) {
        await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
        await visit(page, base, path);
        if (width === 390) {
          const { scroll, inner, wide } = await page.evaluate(() => {
            const inner = window.innerWidth;
            // the widest element reaching past the window, to say what overflows
            const over = [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > inner + 1);
            const e = over[over.length - 1];
            return { scroll: document.documentElement.scrollWidth, inner, wide: e ? `${e.tagName.toLowerCase()}.${String(e.className).slice(0, 40)}` : '' };
          });
          t.ok(scroll <= inner, `${path}: page ${scroll} px wide at ${inner}${wide ? ` (${wide})` : ''}`);
        }
        await page.screenshot({ path: `${SCREENSHOT_DIR}/tour-${user}-${shotName(path)}-${width}.png`, fullPage: width !== 1440 });
      }
    }
  });
}
