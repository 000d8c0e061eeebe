/** The Playbook: the list and preview routes with local folders, and the Drive adapter against a fake Drive. */
import t from 'tap';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { auth as googleAuth } from '@googleapis/drive';
import { drivePlaybook } from '@cc/shared/adapters/playbook/real.ts';
import { startFakeDrive } from '../fakes/drive-server.ts';
import { build, login, bearer } from '../helper.ts';

const list = (c: string) => `/v1/gdrive/customers/${c}/folders/playbooks/`;

t.test('local: the customer’s folder, else the built-in runbooks, previewed with their content type', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'playbooks-'));
  mkdirSync(join(dir, '1AcmePlaybookFolderId'));
  writeFileSync(join(dir, '1AcmePlaybookFolderId', 'Acme on-call.md'), '# Acme on-call\nCall Bob.\n');
  writeFileSync(join(dir, '1AcmePlaybookFolderId', '.hidden.md'), 'no');
  writeFileSync(join(dir, 'secret.md'), 'outside any folder');
  const app = await build(t, { config: { PLAYBOOK_DIR: dir } });
  const [alice, bob, victor] = await Promise.all(['alice@acme.example', 'bob@initech.example', 'victor@acme.example'].map((u) => login(app, u)));
  const get = (token: string, url: string) => app.inject({ method: 'GET', url, headers: bearer(token) });

  t.same((await get(victor, list('acme-corp'))).json(), [
    { id: 'Acme on-call.md', name: 'Acme on-call', url: '/v1/gdrive/customers/acme-corp/folders/playbooks/Acme%20on-call.md' },
  ]);
  const doc = await get(alice, '/v1/gdrive/customers/acme-corp/folders/playbooks/Acme%20on-call.md');
  t.equal(doc.statusCode, 200);
  t.equal(doc.headers['content-type'], 'text/plain; charset=utf-8');
  t.equal(doc.headers['x-content-type-options'], 'nosniff');
  t.match(doc.headers['content-security-policy'], /sandbox/);
  t.equal(doc.body, '# Acme on-call\nCall Bob.\n');
  for (const id of ['..%2Fsecret.md', '.hidden.md', 'missing.md']) {
    t.same((await get(alice, `/v1/gdrive/customers/acme-corp/folders/playbooks/${id}`)).json(), { detail: 'Document not found' }, id);
  }

  const builtin = (await get(alice, list('globex'))).json();
  t.same(builtin.map((d: { name: string }) => d.name), ['Raising a P1', 'Reading the billing dashboard', 'What an anomaly e-mail means'], 'no drive_id: the built-in folder');
  const runbook = await get(alice, builtin[0].url);
  t.match(runbook.body, /^# Raising a P1/);

  t.same((await get(bob, list('initech'))).json(), { detail: 'Playbook for Initech is disabled' });
  t.same((await get(alice, list('initech'))).json(), { detail: 'Customer not found' });
  t.same((await get(bob, '/v1/gdrive/customers/acme-corp/folders/playbooks/Acme%20on-call.md')).json(), { detail: 'Customer not found' });
  t.equal((await app.inject({ method: 'GET', url: list('acme-corp') })).statusCode, 401);
  const cookie = await app.inject({ method: 'GET', url: '/v1/gdrive/customers/acme-corp/folders/playbooks/Acme%20on-call.md', cookies: { token: alice } });
  t.equal(cookie.statusCode, 200, 'the preview tab is signed in by the token cookie');
});

t.test('drive: files.list paged to the end, shared drives, no trash, no sub-folders', async (t) => {
  const fake = await startFakeDrive();
  t.teardown(() => fake.close());
  const auth = new googleAuth.OAuth2();
  auth.setCredentials({ access_token: fake.token, expiry_date: Date.now() + 3_600_000 });
  const drive = drivePlaybook({ auth, rootUrl: fake.rootUrl });
  for (let i = 1; i <= 5; i++) fake.files.push({ id: `doc${i}`, name: `Runbook ${i}`, parent: "team's folder" });
  fake.files.push({ id: 'old', name: 'Old', parent: "team's folder", trashed: true });
  fake.files.push({ id: 'sub', name: 'Archive', parent: "team's folder", mimeType: 'application/vnd.google-apps.folder' });
  fake.files.push({ id: 'elsewhere', name: 'Elsewhere', parent: 'other' });
  fake.sharedDriveFolders.add("team's folder");

  const docs = await drive.list("team's folder");
  t.same(docs.map((d) => d.id), ['doc1', 'doc2', 'doc3', 'doc4', 'doc5']);
  t.equal(docs[0].webViewLink, 'https://docs.google.com/document/d/doc1/edit?usp=drivesdk');
  const calls = fake.requests.filter((r) => r.path === '/drive/v3/files');
  t.equal(calls.length, 5, 'empty pages followed to the page without a token');
  t.equal(calls[0].query.get('q'), "'team\\'s folder' in parents and trashed = false");
  t.ok(calls.every((c) => c.query.get('supportsAllDrives') === 'true' && c.query.get('includeItemsFromAllDrives') === 'true'), 'shared drives asked for');
  t.same(fake.unhandled, []);
});
