import { randomBytes } from 'node:crypto';
import { chmodSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError } from './config.ts';

/**
 * A secret generated at first start and kept in `file` (mode 600, its folder 700), so no secret is ever a constant
 * in the code and what it signed or sealed still holds after a restart. Used for JWT_SECRET and SECRETS_KEY when
 * the configuration leaves them empty (never in production: loadConfig refuses that).
 */
export function keptSecret(file: string, o: { minLength: number; what: string; ifBad: string }): string {
  const existing = readKept(file, o);
  if (existing !== null) return existing;
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  // Written aside, then linked into place: the file appears whole, and when the api and the worker start together the
  // second link fails (EEXIST) and that process reads the first one's secret.
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(draft, `${randomBytes(48).toString('base64url')}\n`, { flag: 'wx', mode: 0o600 });
  try {
    linkSync(draft, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    unlinkSync(draft);
  }
  return readKept(file, o)!;
}

function readKept(file: string, o: { minLength: number; what: string; ifBad: string }): string | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  if (text.length < o.minLength) throw new ConfigError(`${file} must hold ${o.what} of at least ${o.minLength} characters; ${o.ifBad}`);
  // A secret copied in by hand may have kept a readable mode; only the service's user needs it.
  chmodSync(file, 0o600);
  return text;
}
