/**
 * Google Cloud Storage attachment store, through V4 signed URLs only (no client library): the service account key
 * signs every request, so it is the one credential.
 */
import { createHash, createSign } from 'node:crypto';
import { GENERATED_NAME_RE, type AttachmentStore } from '../../ports/attachment-store.ts';

/** RFC 3986 percent-encoding, as the V4 canonical request wants it. */
const rfc3986 = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

export interface GcsOptions {
  bucket: string;
  /** Service account e-mail and PEM private key (from its JSON key file). */
  clientEmail: string;
  privateKey: string;
  /** https://storage.googleapis.com, or a test server. */
  endpoint?: string;
  fetch?: typeof fetch;
  now?: () => Date;
}

/**
 * Cloud Storage V4 signed URL (https://cloud.google.com/storage/docs/access-control/signing-urls-manually):
 * canonical request → string-to-sign → RSA-SHA256 with the service account key. Host is the only signed header.
 */
export function gcsSignedUrl(opts: GcsOptions, method: 'GET' | 'PUT' | 'DELETE', name: string, expiresSeconds: number): string {
  const endpoint = (opts.endpoint ?? 'https://storage.googleapis.com').replace(/\/$/, '');
  const host = new URL(endpoint).host;
  const now = (opts.now ?? (() => new Date()))();
  const datetime = now.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
  const scope = `${datetime.slice(0, 8)}/auto/storage/goog4_request`;
  const path = `/${opts.bucket}/${rfc3986(name)}`;
  const query: Record<string, string> = {
    'X-Goog-Algorithm': 'GOOG4-RSA-SHA256',
    'X-Goog-Credential': `${opts.clientEmail}/${scope}`,
    'X-Goog-Date': datetime,
    'X-Goog-Expires': String(Math.min(604800, Math.max(1, Math.floor(expiresSeconds)))),
    'X-Goog-SignedHeaders': 'host',
  };
  const canonicalQuery = Object.keys(query)
    .sort()
    .map((k) => `${rfc3986(k)}=${rfc3986(query[k])}`)
    .join('&');
  const canonicalRequest = [method, path, canonicalQuery, `host:${host}\n`, 'host', 'UNSIGNED-PAYLOAD'].join('\n');
  const stringToSign = ['GOOG4-RSA-SHA256', datetime, scope, createHash('sha256').update(canonicalRequest).digest('hex')].join('\n');
  const signature = createSign('RSA-SHA256').update(stringToSign).sign(opts.privateKey, 'hex');
  return `${endpoint}${path}?${canonicalQuery}&X-Goog-Signature=${signature}`;
}

/**
 * Google Cloud Storage: the browser PUTs straight to a V4 signed URL (the bucket needs a CORS rule allowing PUT from
 * the portal's origin); the api and the worker read and delete through short-lived signed URLs too, so the only
 * credential is the service account key.
 */
export function gcsAttachmentStore(opts: GcsOptions): AttachmentStore {
  const doFetch = opts.fetch ?? fetch;
  const now = opts.now ?? (() => new Date());
  const call = async (method: 'GET' | 'PUT' | 'DELETE', name: string, body?: Buffer) => {
    if (!GENERATED_NAME_RE.test(name)) throw new Error(`bad attachment name '${name}'`);
    return doFetch(gcsSignedUrl(opts, method, name, 300), { method, body: body ? new Uint8Array(body) : undefined });
  };
  return {
    kind: 'gcs',
    async signedUploadUrl(name, expiresAt) {
      return gcsSignedUrl(opts, 'PUT', name, (expiresAt.getTime() - now().getTime()) / 1000);
    },
    async put(name, bytes) {
      const res = await call('PUT', name, bytes);
      if (!res.ok) throw new Error(`Cloud Storage PUT ${name} answered ${res.status}: ${await res.text()}`);
    },
    async get(name) {
      const res = await call('GET', name);
      if (res.status === 404) return null;
      if (!res.ok) throw new Error(`Cloud Storage GET ${name} answered ${res.status}: ${await res.text()}`);
      return Buffer.from(await res.arrayBuffer());
    },
    async remove(name) {
      const res = await call('DELETE', name);
      if (!res.ok && res.status !== 404) throw new Error(`Cloud Storage DELETE ${name} answered ${res.status}: ${await res.text()}`);
    },
  };
}

/** Reads a service account JSON key file's e-mail and private key. */
export function serviceAccountKey(json: string): { clientEmail: string; privateKey: string } {
  const key = JSON.parse(json) as { client_email?: string; private_key?: string };
  if (!key.client_email || !key.private_key) throw new Error('the key file needs client_email and private_key');
  return { clientEmail: key.client_email, privateKey: key.private_key };
}
