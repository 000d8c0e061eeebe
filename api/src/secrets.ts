import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError, type Config } from '@cc/shared/config.ts';

/**
 * Fills the secrets a configuration may leave empty, so no secret is ever a constant in the code:
 * - JWT_SECRET: generated once and kept in JWT_SECRET_FILE (mode 600), so tokens survive a restart;
 *   loadConfig refuses an empty one in production, where every instance must share one key.
 * - OIDC_CLIENT_SECRET with OIDC=local: the api is both client and provider in one process, so a random
 *   value per process is enough and nothing needs keeping.
 */
export function withGeneratedSecrets(config: Config): Config {
  const out = { ...config };
  if (!out.JWT_SECRET) out.JWT_SECRET = keptJwtSecret(out.JWT_SECRET_FILE);
  if (out.OIDC === 'local' && !out.OIDC_CLIENT_SECRET) out.OIDC_CLIENT_SECRET = randomBytes(32).toString('base64url');
  return out;
}

function keptJwtSecret(file: string): string {
  const existing = readSecret(file);
  if (existing !== null) return existing;
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  try {
    // 'wx': when two processes start together, the second one fails here and reads the first one's key.
    writeFileSync(file, `${randomBytes(48).toString('base64url')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return readSecret(file)!;
}

function readSecret(file: string): string | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  if (text.length < 32) throw new ConfigError(`${file} must hold a JWT secret of at least 32 characters; delete it to have a new one generated`);
  // A key copied in by hand may have kept a readable mode; only the api's user needs it.
  chmodSync(file, 0o600);
  return text;
}
