/** The Jira webhook's signature check: the route acts on a delivery only when it was signed with the shared secret. */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** X-Hub-Signature: sha256=<hex HMAC-SHA256 of the raw body with the webhook secret> (Jira Cloud webhooks with a secret). */
export function webhookSignatureValid(secret: string, raw: Buffer, header: string | undefined): boolean {
  const m = /^sha256=([0-9a-f]{64})$/i.exec(header ?? '');
  if (!secret || !m) return false;
  const want = createHmac('sha256', secret).update(raw).digest();
  return timingSafeEqual(want, Buffer.from(m[1], 'hex'));
}
