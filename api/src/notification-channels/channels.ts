/**
 * What the channel routes call: a channel's URL and signing secret sealed with SECRETS_KEY, bound to the channel id
 * (a sealed value copied onto another channel does not open); the secret made here and answered once; "Send test"
 * sent now from the api under the same rules as a delivery (shared/src/notification-channels/send.ts).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { SecretBox } from '@cc/shared/secret-box.ts';
import type { Pool } from '@cc/shared/db/pool.ts';
import { findChannelSecrets, insertChannel } from '@cc/shared/db/notification-channels.ts';
import { checkChannelUrl, postJson, RefusedDestination, type SendPolicy } from '@cc/shared/notification-channels/send.ts';
import { deliveryRequest, testEvent } from '@cc/shared/notification-channels/bodies.ts';
import type { ChannelCreate, ChannelCreated, ChannelTestResult } from '@cc/shared/schemas/notification-channels.ts';

/** 32 random bytes, as `whsec_` and base64url (the receiver keys its HMAC with the whole string). */
export const newSigningSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;

export async function createChannel(pool: Pool, box: SecretBox, policy: SendPolicy, customerId: string, input: ChannelCreate, createdBy: string): Promise<ChannelCreated> {
  const url = checkChannelUrl(input.url.trim(), policy.production);
  const id = randomUUID();
  const secret = input.kind === 'webhook' ? newSigningSecret() : null;
  const channel = await insertChannel(pool, {
    id,
    customer_id: customerId,
    kind: input.kind,
    name: input.name.trim(),
    url_sealed: box.seal(url.toString(), id),
    secret_sealed: secret === null ? null : box.seal(secret, id),
    url_host: url.host,
    events: input.events,
    created_by: createdBy,
  });
  return { channel, secret };
}

/** Sends the test notice to one of the customer's channels; null when it has none of that id. */
export async function sendTest(pool: Pool, box: SecretBox, policy: SendPolicy, customerId: string, channelId: string): Promise<ChannelTestResult | null> {
  const c = await findChannelSecrets(pool, customerId, channelId);
  if (!c) return null;
  const url = box.open(c.url_sealed, c.id);
  const secret = c.secret_sealed ? box.open(c.secret_sealed, c.id) : null;
  const req = deliveryRequest(c.kind, `test-${randomUUID()}`, testEvent(customerId, c.name), secret);
  try {
    const answer = await postJson(url, req.body, req.headers, policy);
    const ok = answer.status >= 200 && answer.status < 300;
    const redirect = answer.status >= 300 && answer.status < 400 ? ' (redirects are not followed)' : '';
    return { ok, status: answer.status, detail: ok ? `Delivered: the receiver answered ${answer.status}` : `The receiver answered ${answer.status}${redirect}` };
  } catch (err) {
    const message = (err as Error).message;
    return { ok: false, status: null, detail: err instanceof RefusedDestination ? `Refused: ${message}` : `Not delivered: ${message}` };
  }
}
