/**
 * Authenticated encryption of small secrets kept in PostgreSQL (the monitoring password, spec 000 §2): AES-256-GCM
 * with a key from configuration, so a leaked dump or backup does not hand out credentials.
 *
 * Sealed text: `v1.<kid>.<iv>.<ciphertext>.<tag>` (base64url parts). `v1` names the scheme so a later one can be read
 * beside it; `kid` names the key, so a key can be rotated (new key current, old key kept for reading until every row
 * is re-sealed). The optional associated data (e.g. the customer id) is authenticated but not stored: a sealed value
 * copied onto another customer's row does not open.
 */
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** The configured key is a passphrase-like string; keys shorter than this are refused (same rule as JWT_SECRET). */
export const MIN_KEY_LENGTH = 32;

export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

export interface SecretBox {
  seal(plaintext: string, associatedData?: string): string;
  /** Throws SecretBoxError when the text was altered, sealed with an unknown key or with other associated data. */
  open(sealed: string, associatedData?: string): string;
  /** True when `sealed` was made with an older key (re-seal it). */
  needsReseal(sealed: string): boolean;
}

interface DerivedKey {
  kid: string;
  key: Buffer;
}

/**
 * HKDF-SHA256 of the configured string. The string is meant to be random (≥ 32 characters from a generator), so a
 * slow password hash would add nothing; the fixed salt and info separate these keys from any other use of the string.
 */
function derive(secret: string): DerivedKey {
  if (secret.length < MIN_KEY_LENGTH) throw new SecretBoxError(`secret key must be at least ${MIN_KEY_LENGTH} characters`);
  const key = Buffer.from(hkdfSync('sha256', secret, 'commandcenter/secret-box', VERSION, 32));
  // the key id reveals nothing usable about the key: a hash of the derived key, truncated
  const kid = createHash('sha256').update(key).digest('base64url').slice(0, 8);
  return { kid, key };
}

/** A box sealing with `current` and opening with `current` or any of `previous`. */
export function createSecretBox(current: string, previous: string[] = []): SecretBox {
  const sealing = derive(current);
  const keys = new Map<string, Buffer>();
  for (const k of [current, ...previous]) {
    const d = derive(k);
    if (!keys.has(d.kid)) keys.set(d.kid, d.key);
  }
  const parse = (sealed: string) => {
    const parts = sealed.split('.');
    if (parts.length !== 5 || parts[0] !== VERSION) throw new SecretBoxError('not a sealed secret');
    const [, kid, iv, ct, tag] = parts;
    return { kid, iv: Buffer.from(iv, 'base64url'), ct: Buffer.from(ct, 'base64url'), tag: Buffer.from(tag, 'base64url') };
  };

  return {
    seal(plaintext, associatedData) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', sealing.key, iv, { authTagLength: TAG_BYTES });
      if (associatedData !== undefined) cipher.setAAD(Buffer.from(associatedData, 'utf8'));
      const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [VERSION, sealing.kid, iv.toString('base64url'), ct.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
    },
    open(sealed, associatedData) {
      const p = parse(sealed);
      const key = keys.get(p.kid);
      if (!key) throw new SecretBoxError('sealed with a key that is not configured');
      if (p.iv.length !== IV_BYTES || p.tag.length !== TAG_BYTES) throw new SecretBoxError('not a sealed secret');
      const decipher = createDecipheriv('aes-256-gcm', key, p.iv, { authTagLength: TAG_BYTES });
      decipher.setAuthTag(p.tag);
      if (associatedData !== undefined) decipher.setAAD(Buffer.from(associatedData, 'utf8'));
      try {
        return Buffer.concat([decipher.update(p.ct), decipher.final()]).toString('utf8');
      } catch {
        // GCM says only "unable to authenticate": altered text, other associated data or a wrong key look alike
        throw new SecretBoxError('sealed secret does not authenticate');
      }
    },
    needsReseal(sealed) {
      return parse(sealed).kid !== sealing.kid;
    },
  };
}
