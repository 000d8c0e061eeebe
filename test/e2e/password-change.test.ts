/**
 * A signed-in user changes their own password from the account menu: the current one is required (a wrong one is
 * refused with the api's message), the new one is typed twice, and afterwards only the new one signs in.
 */
import t from 'tap';
import { SCREENSHOT_DIR, signIn, startProduct } from './harness.ts';
import { DEMO_PASSWORD } from '../helper.ts';

t.test('change password from the account menu', async (t) => {
  const { base, browser, app } = await startProduct(t);
  const page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
  await signIn(page, base, 'alice@acme.example');
  await page.getByRole('navigation', { name: 'Side menu' }).waitFor();

  await page.getByRole('button', { name: 'Account' }).click();
  await page.getByRole('button', { name: 'Change password' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change password' });
  await dialog.waitFor();
  await dialog.getByRole('button', { name: 'Change password' }).click();
  t.equal(await dialog.getByText('This field is required').count(), 3, 'every field is required');

  await dialog.getByRole('textbox', { name: /^Current password/ }).fill('not-my-password');
  await dialog.getByRole('textbox', { name: /^New password/ }).fill('a-new-secret');
  await dialog.getByRole('textbox', { name: /^Confirm new password/ }).fill('a-new-secret');
  await dialog.getByRole('button', { name: 'Change password' }).click();
  await dialog.getByRole('alert').getByText('The current password is not correct').waitFor();
  await page.screenshot({ path: `${SCREENSHOT_DIR}/password-change-refused.png` });

  await dialog.getByRole('textbox', { name: /^Current password/ }).fill(DEMO_PASSWORD);
  await dialog.getByRole('textbox', { name: /^Current password/ }).press('Enter');
  await page.getByText('Password changed').waitFor();
  await dialog.waitFor({ state: 'detached' });
  t.pass('changed, dialog closed');

  const login = (password: string) => app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email: 'alice@acme.example', password } });
  t.equal((await login(DEMO_PASSWORD)).statusCode, 401, 'the old password no longer signs in');
  t.equal((await login('a-new-secret')).statusCode, 200, 'the new one does');
});
