import t from 'tap';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@cc/shared/config.ts';
import { withGeneratedSecrets } from './secrets.ts';

t.test('an empty JWT_SECRET is generated once, kept with mode 600 and reused', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cc-secret-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'nested', 'jwt-secret');
  const first = withGeneratedSecrets(loadConfig({ JWT_SECRET_FILE: file }));
  t.ok(first.JWT_SECRET.length >= 32);
  t.equal(statSync(file).mode & 0o777, 0o600);
  t.equal(readFileSync(file, 'utf8').trim(), first.JWT_SECRET);
  t.equal(withGeneratedSecrets(loadConfig({ JWT_SECRET_FILE: file })).JWT_SECRET, first.JWT_SECRET, 'a restart keeps the key');
  t.not(first.OIDC_CLIENT_SECRET, '', 'the local provider gets a random client secret');
});

t.test('a set JWT_SECRET wins; a short kept one is refused', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cc-secret-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'jwt-secret');
  const set = 's'.repeat(40);
  t.equal(withGeneratedSecrets(loadConfig({ JWT_SECRET: set, JWT_SECRET_FILE: file })).JWT_SECRET, set);
  writeFileSync(file, 'short\n');
  t.throws(() => withGeneratedSecrets(loadConfig({ JWT_SECRET_FILE: file })), /must hold a JWT secret of at least 32 characters/);
});
