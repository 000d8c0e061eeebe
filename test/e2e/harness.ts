import { createServer } from 'node:net';
import { mkdirSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { Config } from '@cc/shared/config.ts';
import { build, DEMO_PASSWORD } from '../helper.ts';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];
export const SCREENSHOT_DIR = 'test-results/screenshots';

interface Teardown {
  teardown(fn: () => unknown): void;
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** The api serving the built web app on a free port, over a private seeded database, plus a Chromium. */
export async function startProduct(
  t: Teardown,
  config: Partial<Config> = {},
): Promise<{ base: string; browser: Browser; app: Awaited<ReturnType<typeof build>> }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const app = await build(t, { config: { ...config, PUBLIC_URL: base, PORT: port, WEB_DIST: process.env.WEB_DIST ?? 'web/dist' } });
  await app.listen({ host: '127.0.0.1', port });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  t.teardown(() => browser.close());
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return { base, browser, app };
}

export async function signIn(page: Page, base: string, email: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto(base);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

/**
 * The Spend Sum's selected-period figure once it shows `want` (the answer is drawn a moment after it arrives, and the
 * figure before it may be the placeholder or the previous settings' sum), or what it shows after 10 s.
 */
export async function spendSumShowing(page: Page, want: string): Promise<string> {
  const figure = page.getByRole('region', { name: 'Spend Sum' }).locator('div', { hasText: 'Selected period' }).locator('dd');
  let seen = await figure.innerText();
  for (let i = 0; i < 100 && seen !== want; i++) {
    await page.waitForTimeout(100);
    seen = await figure.innerText();
  }
  return seen;
}
