/**
 * The notification channels panel in Chromium, driven from the keyboard: an admin opens a customer's page, adds a
 * webhook channel (kind, name, URL, events), reads its signing secret once, sends a test that a receiver on
 * 127.0.0.1 verifies with that secret (HMAC-SHA256 of the raw body, written here from the documented scheme), changes
 * the channel's events and deletes it. Screenshot: test-results/screenshots/channels-panel.png.
 */
import t from 'tap';
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import { SCREENSHOT_DIR, signIn, startProduct } from './harness.ts';

t.test('an admin adds, tests, edits and deletes a webhook channel from the keyboard', async (t) => {
  const got: { raw: string; signature: string | undefined }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ raw: Buffer.concat(chunks).toString('utf8'), signature: req.headers['x-commandcenter-signature'] as string | undefined });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const hook = `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`;

  const { base, browser } = await startProduct(t);
  const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
  t.teardown(() => context.close());
  const page = await context.newPage();
  await signIn(page, base, 'admin@commandcenter.local');
  await page.getByRole('navigation', { name: 'Side menu' }).waitFor();
  await page.goto(`${base}/customermanagement/update/acme-corp`);
  await page.getByRole('tab', { name: 'Notification channels' }).click();
  const panel = page.getByRole('region', { name: 'Notification channels' });
  await panel.getByText('No channel yet.').waitFor();

  // the form, from the keyboard: Kind (Webhook is the first), Tab to Name, URL, the event checkboxes, Enter
  const form = panel.getByRole('form', { name: 'Add a notification channel' });
  await form.getByLabel('Kind').focus();
  await page.keyboard.press('Tab');
  await page.keyboard.type('Ops endpoint');
  await page.keyboard.press('Tab');
  await page.keyboard.type(hook);
  await form.getByRole('checkbox', { name: 'License order placed' }).focus();
  await page.keyboard.press('Space');
  t.ok(await form.getByRole('checkbox', { name: 'License order placed' }).isChecked(), 'Space ticks an event');
  await form.getByRole('button', { name: 'Add channel' }).focus();
  await page.keyboard.press('Enter');

  const secret = (await panel.getByLabel('Signing secret', { exact: true }).innerText()).trim();
  t.match(secret, /^whsec_/);
  const row = panel.getByRole('listitem', { name: 'Channel Ops endpoint' });
  await row.waitFor();
  t.match(await row.innerText(), /Anomaly found, Alert over quota, License order placed/);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/channels-panel.png`, fullPage: true });

  await row.getByRole('button', { name: 'Send test' }).focus();
  await page.keyboard.press('Enter');
  await row.getByRole('status').getByText('Delivered: the receiver answered 200').waitFor();
  t.equal(got.length, 1);
  t.equal(got[0].signature, `sha256=${createHmac('sha256', secret).update(got[0].raw).digest('hex')}`, 'the test is signed with the secret shown');

  // the secret is shown once: gone after a reload
  await page.reload();
  await page.getByRole('tab', { name: 'Notification channels' }).click();
  await panel.getByRole('listitem', { name: 'Channel Ops endpoint' }).waitFor();
  t.equal(await panel.getByLabel('Signing secret', { exact: true }).count(), 0, 'not shown again');

  await row.getByRole('button', { name: 'Choose events' }).click();
  const events = row.getByRole('form', { name: 'Events of Ops endpoint' });
  await events.getByRole('checkbox', { name: 'Ticket commented by the provider' }).focus();
  await page.keyboard.press('Space');
  await events.getByRole('button', { name: 'Save events' }).click();
  await page.getByText('Events of Ops endpoint saved').waitFor();
  await panel.getByText(/License order placed, Ticket commented by the provider/).waitFor();

  await panel.getByRole('listitem', { name: 'Channel Ops endpoint' }).getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  await panel.getByText('No channel yet.').waitFor();
  t.pass('deleted');
});

