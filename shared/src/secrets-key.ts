/**
 * The key sealing stored secrets (shared/src/secret-box.ts). No secret is a constant in the code: when SECRETS_KEY is
 * empty (development, tests without one), a random key is generated at first start and kept in SECRETS_KEY_FILE with
 * mode 600, so sealed rows still open after a restart. loadConfig refuses an empty SECRETS_KEY in production, where
 * every api and worker instance must share one key.
 */
import type { Config } from './config.ts';
import { keptSecret } from './kept-secret.ts';
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
  return keptSecret(file, { minLength: MIN_KEY_LENGTH, what: 'a key', ifBad: 'set SECRETS_KEY or delete the file (sealed monitoring passwords are then lost)' });
}
