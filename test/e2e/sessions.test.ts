/**
 * Sessions that end, in Chromium: two browsers ("devices") signed in as the same user; "Sign out
 * everywhere" on one signs the other out too, and an admin's "End all sessions" signs a user out.
 * Screenshots land in test-results/screenshots/.
 */
import t from 'tap';
import type { Browser, Page } from 'playwright-core';
import { startProduct, signIn, SCREENSHOT_DIR } from './harness.ts';

async function device(t: { teardown(fn: () => unknown): void }, browser: Browser, base: string, email: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  t.teardown(() => context.close());
  const page = await context.newPage();
  await signIn(page, base, email);
  await page.getByRole('button', { name: 'Account' }).waitFor();
  return page;
}

/** A device whose session was ended shows the sign-in page on its next load. */
async function signedOut(page: Page): Promise<boolean> {
  await page.reload();
  await page.getByRole('button', { name: 'Sign In', exact: true }).waitFor({ timeout: 20_000 });
  return true;
}

t.test('sessions end on every device', async (t) => {
  const { base, browser } = await startProduct(t);

  t.test('Sign out everywhere', async (t) => {
    const laptop = await device(t, browser, base, 'alice@acme.example');
    const phone = await device(t, browser, base, 'alice@acme.example');
    await laptop.getByRole('button', { name: 'Account' }).click();
    const dialog = laptop.getByRole('dialog', { name: 'Account' });
    await dialog.getByRole('button', { name: 'Sign out everywhere' }).waitFor();
    await laptop.screenshot({ path: `${SCREENSHOT_DIR}/sessions-account-menu.png` });
    await dialog.getByRole('button', { name: 'Sign out everywhere' }).click();
    await laptop.getByRole('button', { name: 'Sign In', exact: true }).waitFor({ timeout: 20_000 });
    t.pass('the device that asked is signed out');
    t.ok(await signedOut(phone), 'and so is the other device');
  });

  t.test('an admin ends a user’s sessions', async (t) => {
    const user = await device(t, browser, base, 'victor@acme.example');
    const admin = await device(t, browser, base, 'admin@commandcenter.local');
    await admin.goto(`${base}/usermanagement/update/${encodeURIComponent('victor@acme.example')}`);
    await admin.getByRole('button', { name: 'End all sessions' }).click();
    await admin.getByText(/of victor@acme\.example/).waitFor();
    await admin.screenshot({ path: `${SCREENSHOT_DIR}/sessions-admin-end.png` });
    t.pass('the admin sees the sessions ended');
    t.ok(await signedOut(user), 'the user is signed out');
    await admin.reload();
    await admin.getByRole('button', { name: 'End all sessions' }).waitFor();
    t.pass('the admin stays signed in');
  });
});
