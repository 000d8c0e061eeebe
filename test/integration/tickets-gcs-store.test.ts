import t from 'tap';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gcsAttachmentStore } from '@cc/shared/adapters/attachment-store/real.ts';
import { startFakeGcs } from '../fakes/gcs-server.ts';
import { build, login, bearer } from '../helper.ts';
import { raise } from '../fakes/tickets-client.ts';
import { PDF, EXE } from '../fakes/files.ts';

t.test('attachments in Google Cloud Storage through V4 signed URLs', async (t) => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const clientEmail = 'attachments@msp-project.iam.gserviceaccount.com';
  const gcs = await startFakeGcs({ bucket: 'cc-attachments', clientEmail, publicKey });
  t.teardown(() => gcs.close());
  const dir = mkdtempSync(join(tmpdir(), 'cc-gcs-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const keyFile = join(dir, 'key.json');
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  writeFileSync(keyFile, JSON.stringify({ type: 'service_account', client_email: clientEmail, private_key: pem }));

  const app = await build(t, {
    config: { ATTACHMENT_STORE: 'gcs', ATTACHMENT_BUCKET: 'cc-attachments', ATTACHMENT_GCS_KEY_FILE: keyFile, ATTACHMENT_GCS_ENDPOINT: gcs.url },
  });
  const alice = await login(app, 'alice@acme.example');
  const signed = (await app.inject({ method: 'GET', url: '/v1/jira/signed_url', query: { filename: 'report.pdf' }, headers: bearer(alice) })).json();
  t.ok(signed.signed_url.startsWith(`${gcs.url}/cc-attachments/${signed.generated_name}?`), 'a V4 signed URL of the bucket');
  t.match(signed.signed_url, /X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Credential=attachments%40msp-project/);
  t.match(signed.signed_url, /X-Goog-Expires=(899|900)&/);

  // the browser uploads straight to the bucket
  const tampered = signed.signed_url.replace(/X-Goog-Signature=([0-9a-f])/, (_m: string, c: string) => `X-Goog-Signature=${c === 'a' ? 'b' : 'a'}`);
  t.equal((await fetch(tampered, { method: 'PUT', body: PDF })).status, 403, 'a tampered URL is refused by the bucket');
  const put = await fetch(signed.signed_url, { method: 'PUT', body: PDF });
  t.equal(put.status, 200);
  t.ok(gcs.objects.get(signed.generated_name)?.equals(PDF));

  const ticket = await raise(app, alice, 'acme-corp', { attachments: [signed.generated_name] });
  t.equal(ticket.status, 201, JSON.stringify(ticket.body));
  const [att] = ticket.body.attachments as { url: string; mime_type: string; name: string }[];
  t.match(att, { name: 'report.pdf', mime_type: 'application/pdf' }, 'the api read the bytes back to check them');
  const download = await app.inject({ method: 'GET', url: att.url, headers: bearer(alice) });
  t.ok(download.rawPayload.equals(PDF));

  // an executable uploaded to the bucket under a .pdf name is still refused when attached
  const bad = (await app.inject({ method: 'GET', url: '/v1/jira/signed_url', query: { filename: 'invoice.pdf' }, headers: bearer(alice) })).json();
  t.equal((await fetch(bad.signed_url, { method: 'PUT', body: EXE })).status, 200);
  const refused = await raise(app, alice, 'acme-corp', { attachments: [bad.generated_name] });
  t.equal(refused.status, 400);
  t.same(refused.body, { detail: 'invoice.pdf: Accepted file types are jpeg, png, bmp, plain text, pdf, doc and docx' });

  // an old URL has expired
  const past = gcsAttachmentStore({ bucket: 'cc-attachments', clientEmail, privateKey: pem, endpoint: gcs.url, now: () => new Date(Date.now() - 3600_000) });
  const stale = await past.signedUploadUrl(`${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}-late.pdf`, new Date(Date.now() - 1800_000));
  t.equal((await fetch(stale, { method: 'PUT', body: PDF })).status, 400);
  t.equal(gcs.refused.at(-1), 'ExpiredToken');

  const store = gcsAttachmentStore({ bucket: 'cc-attachments', clientEmail, privateKey: pem, endpoint: gcs.url });
  await store.remove(signed.generated_name);
  t.equal(await store.get(signed.generated_name), null, 'removed');
  await store.remove(signed.generated_name);
  t.pass('removing twice is fine');
});
