/**
 * One demo user's tour for the phone and wide-screen E2E files: every route at each width without sideways
 * scrolling, each pictured (test-results/screenshots/tour-<user>-<route>-<width>.png). The users and widths are split
 * over phone.test.ts, phone-users.test.ts, phone-no-billing.test.ts and tour-wide.test.ts so that each file stays
 * well inside tap's per-file time limit on a loaded machine.
 */
import type { Test } from 'tap';
import type { Browser } from 'playwright-core';
import { signIn, SCREENSHOT_DIR } from './harness.ts';
import { shotName, visit } from './tour.ts';

/** The pictured screens: a phone, a tablet upright, a laptop. */
export const SCREENS = { phone: { width: 390, height: 844 }, tablet: { width: 768, height: 1024 }, laptop: { width: 1440, height: 900 } } as const;
type Screen = (typeof SCREENS)[keyof typeof SCREENS];

/** Every route as `email` on each screen: the page is never wider than the screen. */
export async function phoneTour(t: Test, browser: Browser, base: string, paths: string[], email: string, screens: readonly Screen[] = [SCREENS.phone]): Promise<void> {
  const widths = screens.map((s) => s.width).join(', ');
  await t.test(`${email}: no route scrolls sideways at ${widths} px`, async (t) => {
    const context = await browser.newContext({ viewport: screens[0]! });
    t.teardown(() => context.close());
    const page = await context.newPage();
    await signIn(page, base, email);
    // signed in: the menu button (or, on a screen without it, the side menu) is there
    await page.getByRole('button', { name: 'Menu' }).or(page.getByRole('navigation', { name: 'Side menu' })).first().waitFor();
    const user = email.split('@')[0];
    for (const path of paths) {
      for (const screen of screens) {
        await page.setViewportSize(screen);
        await visit(page, base, path, { settle: true });
        const { scroll, inner, wide } = await page.evaluate(() => {
          const inner = window.innerWidth;
          // the widest element reaching past the window, to say what overflows
          const over = [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > inner + 1);
          const e = over[over.length - 1];
          return { scroll: document.documentElement.scrollWidth, inner, wide: e ? `${e.tagName.toLowerCase()}.${String(e.className).slice(0, 40)}` : '' };
        });
        t.ok(scroll <= inner, `${path}: page ${scroll} px wide at ${inner}${wide ? ` (${wide})` : ''}`);
        // the laptop's first screen, as one sees it; the narrower ones whole, as one scrolls them. CI, which looks at
        // no picture, sets E2E_TOUR_SHOTS=0 (.ci/run): some 170 full-page pictures are a minute of its 30.
        if (process.env.E2E_TOUR_SHOTS !== '0') await page.screenshot({ path: `${SCREENSHOT_DIR}/tour-${user}-${shotName(path)}-${screen.width}.png`, fullPage: screen.width < 1440 });
      }
    }
  });
}
