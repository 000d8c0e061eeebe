/**
 * Port of where ticket attachment bytes live. The browser uploads a file straight to a signed, expiring URL
 * (spec 000 §7 signed_url); the api then reads the bytes back to check them (type by content, size) before the
 * file is attached, and the ticket-sync job reads them to send them to Jira. The stores: shared/src/adapters/attachment-store/
 * (local disk, Cloud Storage); the names and the local upload URL's signature are the contract both sides keep.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface AttachmentStore {
  readonly kind: 'local' | 'gcs';
  /** Where to PUT the file's bytes until `expiresAt`. */
  signedUploadUrl(name: string, expiresAt: Date): Promise<string>;
  put(name: string, bytes: Buffer): Promise<void>;
  /** The bytes, or null when nothing was uploaded under `name`. */
  get(name: string): Promise<Buffer | null>;
  remove(name: string): Promise<void>;
}

/** Generated names: a UUID, a dash and the file name reduced to safe characters (no path can be named). */
export const GENERATED_NAME_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-[A-Za-z0-9._-]{1,120}$/;

export function generatedName(uuid: string, filename: string): string {
  const base = filename.split(/[\\/]/).pop() ?? '';
  const safe = base.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '').slice(-120) || 'file';
  return `${uuid}-${safe}`;
}

/** The original file name shown to users (the generated name without its UUID). */
export const displayName = (generated: string) => generated.slice(37);

export const UPLOAD_PATH = '/v1/jira/uploads';

/** The local store's upload URL signature, made by the store and checked by the api's upload route. */
export function uploadSignature(secret: string, name: string, expires: number): string {
  return createHmac('sha256', secret).update(`upload\n${name}\n${expires}`).digest('hex');
}

/** Checks a local upload URL's signature and expiry. */
export function verifyUploadSignature(secret: string, name: string, expires: string, signature: string, now = Date.now()): 'ok' | 'expired' | 'invalid' {
  if (!/^\d{1,13}$/.test(expires) || !/^[0-9a-f]{64}$/.test(signature)) return 'invalid';
  const want = Buffer.from(uploadSignature(secret, name, Number(expires)), 'hex');
  if (!timingSafeEqual(want, Buffer.from(signature, 'hex'))) return 'invalid';
  return Number(expires) * 1000 < now ? 'expired' : 'ok';
}

