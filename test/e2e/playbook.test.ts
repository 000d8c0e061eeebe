/**
 * Playbook: Acme, the demo's showcase customer, lists the seeded documents of its drive folder, and a markdown
 * document opens rendered (headings, lists, emphasis) and sanitised (markup in a document shows as text, a
 * javascript: link is no link). Screenshots: test-results/screenshots/playbook-*.png.
 */
import t from 'tap';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedPlaybooks } from '../../infra/scripts/seed-playbooks.ts';
import { SCREENSHOT_DIR, signIn, startProduct } from './harness.ts';

t.test('playbook: seeded documents, markdown rendered and sanitised', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'cc-playbooks-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await seedPlaybooks(dir);
  await writeFile(
    join(dir, '1AcmePlaybookFolderId', 'Zz hostile.md'),
    '# Hostile\n\n<script>window.pwned = true</script><img src=x onerror="window.pwned = true">\n\n[click](javascript:window.pwned=true)\n',
  );
  const { base, browser } = await startProduct(t, { PLAYBOOK: 'local', PLAYBOOK_DIR: dir });
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  t.teardown(() => context.close());
  const page = await context.newPage();
  await signIn(page, base, 'alice@acme.example');
  await page.getByRole('navigation', { name: 'Side menu' }).getByRole('link', { name: 'Playbook' }).click();
  const link = page.getByRole('link', { name: 'Acme on-call and escalation' });
  await link.waitFor();
  t.equal(await page.getByText('No documents in the playbook folder').count(), 0);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/playbook-acme.png`, fullPage: true });

  const [preview] = await Promise.all([context.waitForEvent('page'), link.click()]);
  await preview.getByRole('heading', { name: 'Contacts', level: 3 }).waitFor();
  const doc = preview.getByTestId('playbook-document');
  t.equal(await doc.getByRole('heading', { name: 'Acme on-call and escalation', level: 2 }).count(), 1, 'the title is a heading');
  t.equal(await doc.locator('ol > li').count(), 3, 'a numbered list');
  t.equal(await doc.locator('strong', { hasText: 'Platform on call' }).count(), 1, 'bold');
  t.notMatch(await doc.innerText(), /^#|\*\*/m, 'no markdown marks left');
  await preview.screenshot({ path: `${SCREENSHOT_DIR}/playbook-rendered.png`, fullPage: true });

  await preview.goto(`${base}/playbook/view/${encodeURIComponent('Zz hostile.md')}`);
  await preview.getByRole('heading', { name: 'Hostile', level: 2 }).waitFor();
  const hostile = preview.getByTestId('playbook-document');
  t.match(await hostile.innerText(), /<script>window\.pwned = true<\/script>/, 'markup shows as text');
  t.equal(await hostile.locator('script, img').count(), 0, 'no element from the document');
  t.equal(await hostile.locator('a').count(), 0, 'a javascript: link is no link');
  t.equal(await preview.evaluate(() => (window as unknown as { pwned?: boolean }).pwned ?? false), false, 'nothing ran');
});
