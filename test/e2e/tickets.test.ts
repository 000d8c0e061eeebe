/**
 * Support tickets in Chromium (spec 000 §2, §4, §5, §8): alice (customer) raises a ticket with two
 * attachments dropped on the form, comments; the admin and alice move it Open → In Progress → Resolved →
 * Closed; alice gives her satisfaction and downloads an attachment. A ticket-sync worker runs in the test,
 * since the E2E api has none. Screenshots land in test-results/screenshots/.
 */
import t from 'tap';
import { readFile } from 'node:fs/promises';
import type { Browser, Locator, Page } from 'playwright-core';
import { REDIS_URL } from '../db.ts';
import { bearer, login } from '../helper.ts';
import { localAttachmentStore } from '@cc/shared/adapters/attachment-store/local.ts';
import { buildHandlers } from '../../workers/src/handlers.ts';
import { startWorkers } from '../../workers/src/worker-host.ts';
import { localTicketSystem } from '@cc/shared/adapters/jira/local.ts';
import { startProduct, signIn, SCREENSHOT_DIR } from './harness.ts';

const ALICE = 'alice@acme.example';
const ADMIN = 'admin@commandcenter.local';
const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOT_DIR}/tickets-${name}.png`, fullPage: true });

// A real 1×1 PNG and a plain-text file: the server recognises attachments by their bytes.
const PNG_B64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const LOG_TEXT = 'Steps to reproduce\n1. Open the billing export\n2. Wait for the spinner\n';
const FILES = [
  { name: 'screenshot.png', type: 'image/png', b64: PNG_B64 },
  { name: 'steps.txt', type: 'text/plain', b64: Buffer.from(LOG_TEXT).toString('base64') },
];
// A Windows executable renamed to look harmless: refused by its content, whatever the name says.
const FAKE_PDF = { name: 'invoice.pdf', type: 'application/pdf', b64: Buffer.from([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00, 0x00, 0x00]).toString('base64') };

/** Drops files on the attachment zone the way a browser does: a `drop` event carrying a DataTransfer. */
async function dropFiles(page: Page, files: { name: string; type: string; b64: string }[]) {
  const dataTransfer = await page.evaluateHandle((list) => {
    const dt = new DataTransfer();
    for (const f of list) {
      const bytes = Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0));
      dt.items.add(new File([bytes], f.name, { type: f.type }));
    }
    return dt;
  }, files);
  await page.getByTestId('attachment-drop-zone').dispatchEvent('drop', { dataTransfer });
}

async function newSession(browser: Browser, base: string, email: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, acceptDownloads: true });
  const page = await context.newPage();
  await signIn(page, base, email);
  await page.getByRole('navigation', { name: 'Side menu' }).waitFor();
  return page;
}

/** Picks a status or priority, fills the required comment and saves; waits for the snackbar. */
async function change(page: Page, field: 'Status' | 'Priority', value: string, comment: string, snackbar: string) {
  await page.getByRole('combobox', { name: field }).selectOption(value);
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Comment' }).fill(comment);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await page.getByText(snackbar, { exact: true }).waitFor();
  await dialog.waitFor({ state: 'detached' });
  const select = page.getByRole('combobox', { name: field });
  for (let i = 0; i < 50 && (await select.inputValue()) !== value; i++) await page.waitForTimeout(100);
}

/** Primer's field messages (a radio group also repeats its message in a visually hidden live region). */
const validationMessages = (scope: Page | Locator, text: string) => scope.locator('[id$="-validationMessage"]', { hasText: text });

const statusOf = (page: Page) => page.getByRole('combobox', { name: 'Status' }).inputValue();

t.test('a ticket from creation to satisfaction', async (t) => {
  const { base, browser, app } = await startProduct(t);
  const { config, pool } = app.env;
  // No notify worker runs here: the new-ticket e-mail job waits in its queue, nothing is sent.
  const host = await startWorkers({
    redisUrl: REDIS_URL,
    prefix: config.QUEUE_PREFIX,
    queues: ['ticket-sync'],
    handlers: buildHandlers(['ticket-sync'], {
      pool,
      enqueue: app.producers.enqueue,
      publicUrl: config.PUBLIC_URL,
      ticketSystem: localTicketSystem(pool, { project: 'MSP' }),
      attachmentStore: localAttachmentStore({ dir: config.ATTACHMENT_DIR, secret: 'unused-by-the-worker' }),
    }),
  });
  t.teardown(() => host.close());

  const alice = await newSession(browser, base, ALICE);
  let ticketPath = '';

  await t.test('alice raises a ticket with two dropped attachments', async (t) => {
    await alice.getByRole('navigation', { name: 'Side menu' }).getByRole('link', { name: 'Rapid Architecture Ticket' }).click();
    await alice.getByRole('heading', { name: 'Rapid Architecture Ticket' }).waitFor();
    await alice.getByText('No tickets yet.').waitFor();
    await alice.getByRole('button', { name: 'New' }).click();
    await alice.getByRole('heading', { name: 'New Rapid Architecture Ticket' }).waitFor();

    await alice.getByRole('button', { name: 'Save' }).click();
    await shot(alice, 'new-required');
    t.equal(await validationMessages(alice, 'This field is required').count(), 3, 'summary, priority and description are required');
    t.ok(await alice.getByText('end-user-facing production service entirely down.').isVisible(), 'priority meanings are shown');

    await alice.getByRole('textbox', { name: 'Summary' }).fill('Billing export hangs');
    await alice.getByRole('radio', { name: 'P2' }).check();
    await alice.getByRole('textbox', { name: 'Description' }).fill('The CSV export never finishes for the 12 months range.');
    await dropFiles(alice, [...FILES, FAKE_PDF]);
    await alice.getByText('invoice.pdf: Accepted file types are jpeg, png, bmp, plain text, pdf, doc and docx').waitFor();
    const chosen = alice.getByRole('list', { name: 'Chosen files' }).getByRole('listitem');
    t.same(await chosen.allInnerTexts().then((x) => x.map((s) => s.split('\n')[0].trim())), ['screenshot.png', 'steps.txt'], 'the two good files are kept');
    await shot(alice, 'new');

    await alice.getByRole('button', { name: 'Save' }).click();
    await alice.getByRole('heading', { name: 'Rapid Architecture Ticket', exact: true }).waitFor();
    const row = alice.getByRole('row', { name: /Open ticket/ });
    await row.first().waitFor();
    const headers = await alice.getByRole('table', { name: 'Tickets' }).getByRole('columnheader').allInnerTexts();
    t.same(
      headers.map((h) => h.trim()),
      ['Id', 'Summary', 'Status', 'Priority', 'Last Modified', 'First Response', 'Customer Satisfaction'],
    );
    t.match(await row.first().innerText(), /Billing export hangs[\s\S]*Open[\s\S]*P2/);
    t.match(await alice.getByText(/^1–1 of 1$/).innerText(), '1–1 of 1', 'row count text');
    await shot(alice, 'list');
    // The worker writes the ticket to the ticket system; the list picks up its key without Refresh.
    await alice.getByRole('row', { name: /^Open ticket MSP-\d+: Billing export hangs$/ }).waitFor({ timeout: 15_000 });

    // Keyboard: focus the row and press Enter.
    await row.first().focus();
    await alice.keyboard.press('Enter');
    await alice.getByRole('heading', { name: 'Billing export hangs' }).waitFor();
    ticketPath = new URL(alice.url()).pathname;
    t.match(ticketPath, /^\/supportrequest\/view\/[0-9a-f-]{36}$/);
    const attachments = alice.getByRole('list', { name: 'Attachments' }).getByRole('listitem');
    await attachments.nth(1).waitFor();
    t.equal(await attachments.count(), 2, 'both attachments are on the ticket');
  });

  if (!ticketPath) {
    t.fail('no ticket was created: the later steps need one');
    return;
  }

  await t.test('alice comments', async (t) => {
    await alice.getByRole('button', { name: 'Add comment' }).click();
    await alice.getByText('This field is required').waitFor();
    await alice.getByRole('textbox', { name: 'New comment' }).fill('It happens every morning around 9.');
    await alice.getByRole('button', { name: 'Add comment' }).click();
    await alice.getByText('Comment saved', { exact: true }).waitFor();
    await alice.getByText('It happens every morning around 9.').waitFor();
    t.equal(await alice.getByRole('combobox', { name: 'Priority' }).isEnabled(), true, 'priority changeable while Open');
    const options = alice.getByRole('combobox', { name: 'Status' }).locator('option');
    const disabled = await options.evaluateAll((els) => els.filter((e) => (e as HTMLOptionElement).disabled).map((e) => e.textContent));
    t.same(disabled, ['In Progress', 'Resolved', 'Closed'], 'a customer may only cancel an Open ticket');
    await shot(alice, 'view-open');
  });

  await t.test('alice adds files with the picker, deletes one; a vanished file cannot be downloaded', async (t) => {
    const attachments = alice.getByRole('list', { name: 'Attachments' }).getByRole('listitem');
    await alice.getByRole('button', { name: 'Add file' }).click();
    const dialog = alice.getByRole('dialog', { name: 'Add file' });
    // The keyboard path: the picker's file input (what "Choose files" opens).
    await dialog.getByTestId('attachment-file-input').setInputFiles([
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('notes\n') },
      { name: 'extra.txt', mimeType: 'text/plain', buffer: Buffer.from('extra\n') },
    ]);
    await dialog.getByText('extra.txt', { exact: true }).waitFor();
    await dialog.getByRole('button', { name: 'Upload' }).click();
    await alice.getByText('Attachment saved', { exact: true }).waitFor();
    await attachments.nth(3).waitFor();
    t.equal(await attachments.count(), 4);

    await alice.getByRole('button', { name: 'Delete extra.txt' }).click();
    const confirm = alice.getByRole('alertdialog').or(alice.getByRole('dialog'));
    await confirm.getByText('Are you sure you want to delete this attachment?').waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await alice.getByText('Attachment deleted', { exact: true }).waitFor();
    await alice.getByRole('button', { name: 'Delete extra.txt' }).waitFor({ state: 'detached' });

    // Someone else removes notes.txt while this page still lists it.
    const token = await login(app, ALICE);
    const id = ticketPath.split('/').pop()!;
    const ticket = (await app.inject({ method: 'GET', url: `/v1/jira/msp_tickets/${id}`, headers: bearer(token) })).json();
    const notes = ticket.attachments.find((a: { name: string }) => a.name === 'notes.txt');
    const res = await app.inject({ method: 'DELETE', url: `/v1/jira/msp_tickets/${id}/attachment/${notes.id}`, headers: bearer(token) });
    t.equal(res.statusCode, 200, res.body);
    await alice.getByRole('button', { name: 'Download notes.txt' }).click();
    await alice.getByText('Error downloading file', { exact: true }).waitFor();
    await shot(alice, 'download-error');
    await alice.reload();
    await alice.getByRole('heading', { name: 'Billing export hangs' }).waitFor();
    await attachments.nth(1).waitFor();
    t.same((await attachments.allInnerTexts()).map((x) => x.trim()).sort(), ['screenshot.png', 'steps.txt']);
  });

  const admin = await newSession(browser, base, ADMIN);
  await t.test('the admin works the ticket: In Progress, priority, Resolved', async (t) => {
    await admin.goto(`${base}${ticketPath}`);
    await admin.getByRole('heading', { name: 'Billing export hangs' }).waitFor();
    const facts = admin.getByRole('complementary', { name: 'Ticket details' });
    t.match(await facts.innerText(), /Created\s+\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}/, 'ticket dates read YYYY/MM/DD HH:mm');
    t.match(await facts.innerText(), /First Response\s+None yet/, 'no answer from the provider yet');
    const adminOptions = admin.getByRole('combobox', { name: 'Status' }).locator('option');
    const adminDisabled = await adminOptions.evaluateAll((els) => els.filter((e) => (e as HTMLOptionElement).disabled).map((e) => e.textContent));
    t.same(adminDisabled, ['Closed'], 'the provider may start, resolve or cancel an Open ticket, not close it');
    await shot(admin, 'view-open-admin');
    await admin.getByRole('combobox', { name: 'Status' }).selectOption('In Progress');
    const dialog = admin.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('This field is required').waitFor();
    t.pass('a status change needs a comment');
    await dialog.getByRole('textbox', { name: 'Comment' }).fill('Looking into the export job.');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await admin.getByText('status and comment saved', { exact: true }).waitFor();
    await change(admin, 'Priority', 'P1', 'Raising: it blocks month-end closing.', 'Priority saved');
    t.equal(await admin.getByRole('combobox', { name: 'Priority' }).inputValue(), 'P1');
    await facts.getByText('end-user-facing production service entirely down.').waitFor();
    t.pass("the side panel says what the priority means");
    await change(admin, 'Status', 'Resolved', 'Fixed the export timeout.', 'status and comment saved');
    t.equal(await statusOf(admin), 'Resolved');
    t.equal(await admin.getByRole('combobox', { name: 'Priority' }).isDisabled(), true, 'priority locked once Resolved');
    await admin.getByText('Open → In Progress').waitFor();
    t.match(await facts.innerText(), /First Response\s+\d{4}\/\d{2}\/\d{2} \d{2}:\d{2} \(< 1h\)\s+admin@commandcenter\.local/, 'the admin answered: first response with its bucket');
    await shot(admin, 'view-resolved-admin');
  });

  await t.test('alice closes it; satisfaction is asked once, never of the admin', async (t) => {
    await alice.reload();
    await alice.getByRole('heading', { name: 'Billing export hangs' }).waitFor();
    t.equal(await statusOf(alice), 'Resolved');
    await change(alice, 'Status', 'Closed', 'Confirmed, thanks.', 'status and comment saved');
    t.equal(await alice.getByRole('combobox', { name: 'Status' }).isDisabled(), true, 'status locked once Closed');
    t.equal(await alice.getByRole('button', { name: 'Add comment' }).count(), 0, 'no comments on a Closed ticket');
    t.equal(await alice.getByRole('button', { name: 'Add file' }).count(), 0, 'no new files on a Closed ticket');
    t.equal(await alice.getByRole('button', { name: /^Delete / }).count(), 0, 'no deleting files on a Closed ticket');
    await alice.getByText('To be provided').waitFor();

    await admin.reload();
    await admin.getByText('To be provided').waitFor();
    t.equal(await admin.getByRole('button', { name: 'Provide Feedback' }).isDisabled(), true, 'admins cannot give feedback');
    await shot(admin, 'view-closed-admin');

    await alice.getByRole('button', { name: 'Provide Feedback' }).click();
    const dialog = alice.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await validationMessages(dialog, 'Please, select satisfaction score').waitFor();
    await validationMessages(dialog, 'This field is required').waitFor();
    await dialog.getByRole('radio', { name: /Very satisfied/ }).check();
    await dialog.getByRole('textbox', { name: 'Comment' }).fill('Quick and clear.');
    await shot(alice, 'feedback');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await alice.getByText('Satisfaction level saved', { exact: true }).waitFor();
    await alice.getByText('5 Very satisfied').waitFor();
    t.equal(await alice.getByRole('button', { name: 'Provide Feedback' }).count(), 0, 'given once');
    await shot(alice, 'view-closed');
  });

  await t.test('alice downloads an attachment', async (t) => {
    const [download] = await Promise.all([alice.waitForEvent('download'), alice.getByRole('button', { name: 'Download steps.txt' }).click()]);
    t.equal(download.suggestedFilename(), 'steps.txt');
    const path = await download.path();
    t.equal(await readFile(path, 'utf8'), LOG_TEXT, 'the bytes that were uploaded');
  });

  await t.test('the list shows the outcome', async (t) => {
    await alice.getByRole('button', { name: 'Back' }).click();
    const row = alice.getByRole('row', { name: /Open ticket/ }).first();
    await row.waitFor();
    t.match(await row.innerText(), /Closed[\s\S]*P1[\s\S]*5 Very satisfied/);
    t.match(await row.innerText(), /\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}[\s\S]*\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2} \(< 1h\)/, 'list dates en-GB 24-hour; first response with its bucket');
    await shot(alice, 'list-closed');

    await admin.getByRole('button', { name: 'Back', exact: true }).click();
    await admin.getByRole('row', { name: /Billing export hangs/ }).waitFor();
    await shot(admin, 'list-admin');
    await admin.getByRole('button', { name: 'New' }).click();
    await admin.getByRole('heading', { name: 'New Rapid Architecture Ticket' }).waitFor();
    for (const p of ['P1', 'P2', 'P3', 'P4'] as const) {
      t.equal(await admin.getByRole('radio', { name: p }).count(), 1, `priority ${p} offered`);
    }
    await admin.getByText('end-user-facing production service entirely down.').waitFor();
    await admin.getByText('feature requests or questions on using cloud services.').waitFor();
    await shot(admin, 'new-admin');
  });

  await t.test('the new-ticket form takes a selection as route state', async (t) => {
    await alice.goto(`${base}/supportrequest`);
    await alice.getByRole('button', { name: 'New' }).waitFor();
    // What the inventory screen does: navigate with history state (wouter follows pushState).
    await alice.evaluate(() =>
      window.history.pushState({ summary: 'Inventory investigation', description: 'vm-1 (us-central1): public IP' }, '', '/supportrequest/new'),
    );
    await alice.getByRole('heading', { name: 'New Rapid Architecture Ticket' }).waitFor();
    t.equal(await alice.getByRole('textbox', { name: 'Summary' }).inputValue(), 'Inventory investigation');
    t.equal(await alice.getByRole('textbox', { name: 'Description' }).inputValue(), 'vm-1 (us-central1): public IP');
    await alice.getByRole('button', { name: 'Cancel' }).click();
    await alice.getByRole('heading', { name: 'Rapid Architecture Ticket', exact: true }).waitFor();
  });

  await t.test('a viewer reads, pages, and changes nothing', async (t) => {
    const token = await login(app, ALICE);
    for (let i = 1; i <= 11; i++) {
      const res = await app.inject({
        method: 'POST',
        url: '/v1/jira/msp_tickets',
        headers: bearer(token),
        payload: { customer: 'acme-corp', summary: `Question ${i}`, description: 'How do budgets work?', priority: 'P4' },
      });
      t.equal(res.statusCode, 201, res.body);
    }
    const victor = await newSession(browser, base, 'victor@acme.example');
    await victor.getByRole('navigation', { name: 'Side menu' }).getByRole('link', { name: 'Rapid Architecture Ticket' }).click();
    await victor.getByText(/^1–10 of 12$/).waitFor();
    t.equal(await victor.getByRole('button', { name: 'New' }).count(), 0, 'no New without supportrequest_create');
    t.equal(await victor.getByRole('row', { name: /Open ticket/ }).count(), 10, 'page size 10');
    await victor.getByRole('button', { name: 'Next page' }).click();
    await victor.getByText(/^11–12 of 12$/).waitFor();
    await shot(victor, 'list-viewer-page2');
    await victor.getByRole('row', { name: /Billing export hangs/ }).click();
    await victor.getByRole('heading', { name: 'Billing export hangs' }).waitFor();
    t.equal(await victor.getByRole('combobox', { name: 'Status' }).isDisabled(), true);
    t.equal(await victor.getByRole('button', { name: 'Provide Feedback' }).count(), 0, 'already given');
    t.equal(await victor.getByRole('button', { name: 'Download steps.txt' }).count(), 1, 'viewers may download');
    await victor.getByRole('button', { name: 'Back' }).click();
    await victor.getByText(/^1–10 of 12$/).waitFor();
  });

});
