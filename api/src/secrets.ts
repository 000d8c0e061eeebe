import { randomBytes } from 'node:crypto';
import type { Config } from '@cc/shared/config.ts';
import { keptSecret } from '@cc/shared/kept-secret.ts';

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
  return keptSecret(file, { minLength: 32, what: 'a JWT secret', ifBad: 'delete it to have a new one generated' });
}
