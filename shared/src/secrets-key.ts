/**
 * The key sealing stored secrets (shared/src/secret-box.ts). No secret is a constant in the code: when SECRETS_KEY is
 * empty (development, tests without one), a random key is generated at first start and kept in SECRETS_KEY_FILE with
 * mode 600, so sealed rows still open after a restart. loadConfig refuses an empty SECRETS_KEY in production, where
 * every api and worker instance must share one key.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError, type Config } from './config.ts';
import { MIN_KEY_LENGTH, createSecretBox, type SecretBox } from './secret-box.ts';

type KeySettings = Pick<Config, 'SECRETS_KEY' | 'SECRETS_KEY_FILE' | 'SECRETS_KEY_PREVIOUS'>;

/** The configured key, or the kept generated one (generated now when there is none yet). */
export function secretsKey(config: Pick<Config, 'SECRETS_KEY' | 'SECRETS_KEY_FILE'>): string {
  return config.SECRETS_KEY || keptKey(config.SECRETS_KEY_FILE);
}

export function secretBoxFromConfig(config: KeySettings): SecretBox {
  return createSecretBox(secretsKey(config), config.SECRETS_KEY_PREVIOUS);
}

function keptKey(file: string): string {
  const existing = readKey(file);
  if (existing !== null) return existing;
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  // Written aside, then linked into place: the file appears whole, and when the api and the worker start together the
  // second link fails (EEXIST) and that process reads the first one's key.
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(draft, `${randomBytes(48).toString('base64url')}\n`, { flag: 'wx', mode: 0o600 });
  try {
    linkSync(draft, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    unlinkSync(draft);
  }
  return readKey(file)!;
}

function readKey(file: string): string | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  if (text.length < MIN_KEY_LENGTH) throw new ConfigError(`${file} must hold a key of at least ${MIN_KEY_LENGTH} characters; set SECRETS_KEY or delete the file (sealed monitoring passwords are then lost)`);
  // A key copied in by hand may have kept a readable mode; only the service's user needs it.
  chmodSync(file, 0o600);
  return text;
}
