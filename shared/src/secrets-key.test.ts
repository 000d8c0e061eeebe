import t from 'tap';
import { readFileSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from './config.ts';
import { secretBoxFromConfig, secretsKey } from './secrets-key.ts';

t.test('an empty SECRETS_KEY is generated once, kept with mode 600 and reused', async (t) => {
  const file = join(t.testdir({}), 'nested', 'secrets-key');
  const config = loadConfig({ SECRETS_KEY_FILE: file });
  t.equal(config.SECRETS_KEY, '', 'no key in the code');
  const first = secretsKey(config);
  t.ok(first.length >= 32);
  t.equal(statSync(file).mode & 0o777, 0o600);
  t.equal(readFileSync(file, 'utf8').trim(), first);
  t.equal(secretsKey(config), first, 'a restart (or the other process) gets the same key');
  const sealed = secretBoxFromConfig(config).seal('pw', 'acme-corp');
  t.equal(secretBoxFromConfig(loadConfig({ SECRETS_KEY_FILE: file })).open(sealed, 'acme-corp'), 'pw');
});

t.test('a set SECRETS_KEY wins; a short kept one is refused; a readable one is tightened', async (t) => {
  const dir = t.testdir({});
  const file = join(dir, 'secrets-key');
  const set = 's'.repeat(40);
  t.equal(secretsKey(loadConfig({ SECRETS_KEY: set, SECRETS_KEY_FILE: file })), set);
  t.throws(() => statSync(file), 'nothing generated when the key is set');
  writeFileSync(file, 'short\n');
  t.throws(() => secretsKey(loadConfig({ SECRETS_KEY_FILE: file })), /must hold a key of at least 32 characters/);
  writeFileSync(file, `${'k'.repeat(40)}\n`);
  chmodSync(file, 0o644);
  t.equal(secretsKey(loadConfig({ SECRETS_KEY_FILE: file })), 'k'.repeat(40));
  t.equal(statSync(file).mode & 0o777, 0o600);
});

t.test('rotation: a value sealed with the previous key still opens', async (t) => {
  const old = 'o'.repeat(40);
  const sealed = secretBoxFromConfig(loadConfig({ SECRETS_KEY: old })).seal('pw', 'acme-corp');
  const rotated = secretBoxFromConfig(loadConfig({ SECRETS_KEY: 'n'.repeat(40), SECRETS_KEY_PREVIOUS: old }));
  t.equal(rotated.open(sealed, 'acme-corp'), 'pw');
  t.ok(rotated.needsReseal(sealed));
});
