import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { build, login, bearer } from '../helper.ts';
import { upload, raise, NEW_TICKET } from '../fakes/tickets-client.ts';
import type { TicketDetail, TicketListItem } from '@cc/shared/schemas/tickets.ts';
import { PNG, PDF, JPEG, TEXT, DOC, DOCX, XLSX, EXE, bmp } from '../fakes/files.ts';

interface Test {
  teardown(fn: () => unknown): void;
}

function attachmentDir(t: Test) {
  const dir = mkdtempSync(join(tmpdir(), 'cc-attach-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function setup(t: Test) {
  const app = await build(t, { config: { ATTACHMENT_DIR: attachmentDir(t) } });
  const [alice, bob, admin, victor] = await Promise.all(
    ['alice@acme.example', 'bob@initech.example', 'admin@commandcenter.local', 'victor@acme.example'].map((e) => login(app, e)),
  );
  const count = async () => (await app.env.pool.query('SELECT count(*)::int AS n FROM ticket')).rows[0].n as number;
  return { app, alice, bob, admin, victor, count };
}

t.test('create, read, list; a retried create makes one ticket', async (t) => {
  const { app, alice, count } = await setup(t);
  const png = await upload(app, alice, 'screen shot.png', PNG);
  const pdf = await upload(app, alice, 'report.pdf', PDF);
  t.equal(png.status, 201, png.body);
  t.equal(pdf.status, 201, pdf.body);
  const created = await raise(app, alice, 'acme-corp', { attachments: [png.name, pdf.name], creation_by: 'someone@else.example' });
  t.equal(created.status, 201, JSON.stringify(created.body));
  const body = created.body as unknown as TicketDetail;
  t.match(body, {
    id: created.id,
    jira_issue_key: null,
    summary: NEW_TICKET.summary,
    description: NEW_TICKET.description,
    priority: 'P2',
    status: 'Open',
    creation_by: 'alice@acme.example',
    customer_id: 'acme-corp',
    customer_name: 'Acme Corp',
    first_response_date: null,
    first_response_bucket: null,
    customer_satisfaction_score: null,
    customer_satisfaction_comment: null,
    sync_state: 'pending',
  });
  t.same(
    body.attachments.map((a) => [a.name, a.mime_type, a.size]),
    [
      ['screen shot.png', 'image/png', PNG.length],
      ['report.pdf', 'application/pdf', PDF.length],
    ],
  );

  const again = await raise(app, alice, 'acme-corp', { id: created.id });
  t.equal(again.status, 200, 'the same id answers the existing ticket');
  t.equal(again.body.id, created.id);
  t.equal(await count(), 1);

  const list = await app.inject({ method: 'GET', url: '/v1/jira/msp_tickets/acme-corp/list', headers: bearer(alice) });
  t.equal(list.statusCode, 200);
  t.same((list.json() as TicketListItem[]).map((x) => x.id), [created.id]);
  t.notOk('description' in list.json()[0], 'list items stay small');

  const one = await app.inject({ method: 'GET', url: `/v1/jira/msp_tickets/${created.id}`, headers: bearer(alice) });
  t.equal(one.statusCode, 200);
  t.equal(one.json().attachments.length, 2);
  const comments = await app.inject({ method: 'GET', url: `/v1/jira/msp_tickets/${created.id}/comment`, headers: bearer(alice) });
  t.same(comments.json(), []);

  const download = await app.inject({ method: 'GET', url: one.json().attachments[0].url, headers: bearer(alice) });
  t.equal(download.statusCode, 200);
  t.equal(download.headers['content-type'], 'image/png');
  t.ok(download.rawPayload.equals(PNG), 'the same bytes come back');
  t.match(download.headers['content-disposition'], /filename\*=UTF-8''screen%20shot\.png/);

  const job = await app.producers.queues['ticket-sync'].getJob(`ticket-create-${created.id}`);
  t.same(job?.data, { op: 'create', ticket_id: created.id }, 'the create is queued for the system of record');
  const mail = await app.producers.queues.notify.getJob(`notify-ticket-created-${created.id}`);
  t.same(mail?.data.to, ['alice@acme.example'], "the customer's notify list is e-mailed");
  t.match(mail?.data.subject, /Database disk almost full/);
});

t.test('every field rule answers 400 and saves nothing', async (t) => {
  const { app, alice, count } = await setup(t);
  const cases: [string, Record<string, unknown>, string | RegExp][] = [
    ['no summary', { summary: '' }, 'Summary: This field is required'],
    ['blank summary', { summary: '   ' }, 'Summary: This field is required'],
    ['summary of 101', { summary: 's'.repeat(101) }, 'Summary must be at most 100 characters'],
    ['no priority', { priority: undefined }, 'Priority: This field is required'],
    ['priority P5', { priority: 'P5' }, 'Priority must be one of P1, P2, P3, P4'],
    ['no description', { description: '' }, 'Description: This field is required'],
    ['description of 30,001', { description: 'd'.repeat(30_001) }, 'Description must be at most 30000 characters'],
    ['11 attachments', { attachments: Array.from({ length: 11 }, (_, i) => `x${i}`) }, 'A ticket has at most 10 attachments'],
    ['an unknown upload', { attachments: [`${randomUUID()}-a.png`] }, /^Unknown upload /],
  ];
  for (const [name, change, detail] of cases) {
    const res = await raise(app, alice, 'acme-corp', change);
    t.equal(res.status, 400, name);
    t.match(res.body, { detail }, name);
  }
  const ok100 = await raise(app, alice, 'acme-corp', { summary: 's'.repeat(100), description: 'd'.repeat(30_000), priority: 'P4' });
  t.equal(ok100.status, 201, 'the limits themselves are accepted');

  // a refused file rolls back the ticket it came with
  const good = await upload(app, alice, 'a.png', PNG);
  const missing = await app.inject({ method: 'GET', url: '/v1/jira/signed_url', query: { filename: 'never.pdf' }, headers: bearer(alice) });
  const res = await raise(app, alice, 'acme-corp', { attachments: [good.name, missing.json().generated_name] });
  t.equal(res.status, 400);
  t.same(res.body, { detail: 'never.pdf: the file has not been uploaded' });
  t.equal(await count(), 1, 'nothing half-saved');
  const retry = await raise(app, alice, 'acme-corp', { attachments: [good.name] });
  t.equal(retry.status, 201, 'the good upload is still usable');
});

t.test('attachments are checked by content, size and count', async (t) => {
  const { app, alice } = await setup(t);
  for (const [filename, bytes, mime] of [
    ['photo.jpg', JPEG, 'image/jpeg'],
    ['image.bmp', bmp(), 'image/bmp'],
    ['notes.txt', TEXT, 'text/plain'],
    ['old.doc', DOC, 'application/msword'],
    ['new.docx', DOCX, 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    ['no-extension', PDF, 'application/pdf'],
  ] as const) {
    const res = await upload(app, alice, filename, bytes);
    t.equal(res.status, 201, filename);
    t.equal(JSON.parse(res.body).mime_type, mime, filename);
  }
  for (const [filename, bytes, detail] of [
    ['invoice.pdf', EXE, 'invoice.pdf: Accepted file types are jpeg, png, bmp, plain text, pdf, doc and docx'],
    ['sheet.docx', XLSX, 'sheet.docx: Accepted file types are jpeg, png, bmp, plain text, pdf, doc and docx'],
    ['empty.txt', Buffer.alloc(0), 'empty.txt: The file is empty'],
    ['big.txt', Buffer.alloc(5_000_001, 0x61), 'big.txt: An attachment is at most 5,000,000 bytes'],
  ] as const) {
    const res = await upload(app, alice, filename, bytes);
    t.equal(res.status, 400, filename);
    t.same(JSON.parse(res.body), { detail }, filename);
  }
  // the type a browser sends (or none) does not matter: the bytes are taken raw and judged by content
  for (const [contentType, bytes, mime] of [
    [undefined, PNG, 'image/png'],
    ['', PNG, 'image/png'],
    ['application/json', Buffer.from('{"a": 1}'), 'text/plain'],
    ['text/plain', TEXT, 'text/plain'],
    ['image/png', PDF, 'application/pdf'],
  ] as const) {
    const signed = (await app.inject({ method: 'GET', url: '/v1/jira/signed_url', query: { filename: 'f' }, headers: bearer(alice) })).json();
    const res = await app.inject({ method: 'PUT', url: signed.signed_url, body: bytes, headers: contentType === undefined ? {} : { 'content-type': contentType } });
    t.equal(res.statusCode, 201, `content-type ${contentType}`);
    t.equal(res.json().mime_type, mime, `content-type ${contentType}`);
  }
  const max = await upload(app, alice, 'max.txt', Buffer.alloc(5_000_000, 0x61));
  t.equal(max.status, 201, 'exactly 5,000,000 bytes is accepted');

  // ten per ticket, whether attached at creation or later
  const names = [];
  for (let i = 0; i < 10; i++) names.push((await upload(app, alice, `p${i}.png`, PNG)).name);
  const ticket = await raise(app, alice, 'acme-corp', { attachments: names });
  t.equal(ticket.status, 201);
  const eleventh = await upload(app, alice, 'p10.png', PNG);
  const refused = await app.inject({ method: 'PATCH', url: `/v1/jira/msp_tickets/${ticket.id}/attachment`, headers: bearer(alice), payload: { name: eleventh.name } });
  t.equal(refused.statusCode, 400);
  t.same(refused.json(), { detail: 'A ticket has at most 10 attachments' });

  const first = (ticket.body.attachments as { id: string; url: string }[])[0];
  const del = await app.inject({ method: 'DELETE', url: `/v1/jira/msp_tickets/${ticket.id}/attachment/${first.id}`, headers: bearer(alice) });
  t.equal(del.statusCode, 200);
  t.same(del.json(), { id: first.id, deleted: true });
  t.equal((await app.inject({ method: 'GET', url: first.url, headers: bearer(alice) })).statusCode, 404, 'a deleted attachment is gone');
  const added = await app.inject({ method: 'PATCH', url: `/v1/jira/msp_tickets/${ticket.id}/attachment`, headers: bearer(alice), payload: { name: eleventh.name } });
  t.equal(added.statusCode, 200, 'after a delete there is room again');
  t.equal(added.json().attachments.length, 10);
  const twice = await app.inject({ method: 'PATCH', url: `/v1/jira/msp_tickets/${ticket.id}/attachment`, headers: bearer(alice), payload: { name: eleventh.name } });
  t.equal(twice.statusCode, 400, 'an upload is attached once');
});

t.test('signed upload URLs: tampered, expired, reused, someone else’s', async (t) => {
  const { app, alice, bob } = await setup(t);
  const signed = (await app.inject({ method: 'GET', url: '/v1/jira/signed_url', query: { filename: '../../etc/passwd.png' }, headers: bearer(alice) })).json();
  t.match(signed.generated_name, /^[0-9a-f-]{36}-passwd\.png$/, 'no path survives in the generated name');
  const url = new URL(signed.signed_url, 'http://x');
  t.equal(url.pathname, `/v1/jira/uploads/${signed.generated_name}`);

  const tampered = new URL(url);
  tampered.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600));
  let res = await app.inject({ method: 'PUT', url: tampered.pathname + tampered.search, payload: PNG, headers: { 'content-type': 'image/png' } });
  t.equal(res.statusCode, 403, 'a later expiry breaks the signature');
  t.same(res.json(), { detail: 'Invalid upload signature' });
  const otherName = `${url.pathname.replace(/[^/]+$/, `${randomUUID()}-x.png`)}${url.search}`;
  res = await app.inject({ method: 'PUT', url: otherName, payload: PNG, headers: { 'content-type': 'image/png' } });
  t.equal(res.statusCode, 403, 'the signature is bound to the name');

  res = await app.inject({ method: 'PUT', url: signed.signed_url, payload: PNG, headers: { 'content-type': 'image/png' } });
  t.equal(res.statusCode, 201);
  res = await app.inject({ method: 'PUT', url: signed.signed_url, payload: PDF, headers: { 'content-type': 'application/pdf' } });
  t.equal(res.statusCode, 400, 'a signed URL takes one upload');
  t.same(res.json(), { detail: 'This upload URL has already been used' });

  // bob cannot attach alice's upload even to his own ticket
  const bobs = await raise(app, bob, 'initech', { attachments: [signed.generated_name] });
  t.equal(bobs.status, 400);
  t.match(bobs.body, { detail: /^Unknown upload / });

  const short = await build(t, { config: { ATTACHMENT_DIR: attachmentDir(t), UPLOAD_URL_TTL_SECONDS: 30 } });
  const token = await login(short, 'alice@acme.example');
  const s2 = (await short.inject({ method: 'GET', url: '/v1/jira/signed_url', query: { filename: 'late.png' }, headers: bearer(token) })).json();
  const expiresAt = Date.parse(s2.expires_at);
  t.ok(expiresAt - Date.now() <= 30_000 && expiresAt - Date.now() > 20_000, 'expiry follows UPLOAD_URL_TTL_SECONDS');
  const clock = t.capture(Date, 'now', () => expiresAt + 1000);
  res = await short.inject({ method: 'PUT', url: s2.signed_url, payload: PNG, headers: { 'content-type': 'image/png' } });
  clock();
  t.equal(res.statusCode, 403);
  t.same(res.json(), { detail: 'The upload URL has expired' });
});

t.test('the list pages on the server: limit/offset, last modified first, X-Total-Count counts them all', async (t) => {
  const { app, alice, bob } = await setup(t);
  const ids: string[] = [];
  for (let i = 0; i < 12; i++) {
    const r = await raise(app, alice, 'acme-corp', { summary: `Ticket ${i}` });
    t.equal(r.status, 201);
    ids.push(r.id);
  }
  t.equal((await raise(app, bob, 'initech')).status, 201, "another customer's ticket is not counted");
  // distinct modification times, oldest first as created
  await app.env.pool.query(`UPDATE ticket SET updated_at = now() - (interval '1 minute' * (100 - idx)) FROM unnest($1::uuid[]) WITH ORDINALITY AS u(id, idx) WHERE ticket.id = u.id`, [ids]);
  const newestFirst = [...ids].reverse();
  const page = (q: string) => app.inject({ method: 'GET', url: `/v1/jira/msp_tickets/acme-corp/list${q}`, headers: bearer(alice) });

  const first = await page('?limit=10&offset=0');
  t.equal(first.statusCode, 200);
  t.equal(first.headers['x-total-count'], '12');
  t.same((first.json() as TicketListItem[]).map((x) => x.id), newestFirst.slice(0, 10));
  const second = await page('?limit=10&offset=10');
  t.equal(second.headers['x-total-count'], '12');
  t.same((second.json() as TicketListItem[]).map((x) => x.id), newestFirst.slice(10));
  const all = await page('');
  t.equal((all.json() as unknown[]).length, 12, 'without limit a page holds up to 500');
  t.equal((await page('?limit=0')).statusCode, 400, 'a page holds at least one ticket');
});
