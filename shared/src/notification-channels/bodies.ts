/**
 * The request of one delivery per channel kind. Formats (sources in docs/decisions-notifications.md):
 *  - webhook: our JSON body, signed: `X-CommandCenter-Signature: sha256=<hex HMAC-SHA256 of the raw body, keyed by the
 *    channel's secret>`, `X-CommandCenter-Delivery: <delivery id>`, `X-CommandCenter-Timestamp: <unix seconds>`; the
 *    timestamp is also the body's `timestamp` field, so it is covered by the signature;
 *  - slack: an incoming-webhook message, `text` (the notification fallback) and Block Kit `blocks` (header, section
 *    with mrkdwn text and fields, context);
 *  - teams: a Workflows webhook ("Post to a channel when a webhook request is received") message whose one attachment
 *    is an Adaptive Card (`application/vnd.microsoft.card.adaptive`, card version 1.4).
 */
import { createHmac } from 'node:crypto';
import type { ChannelKind } from '../schemas/notification-channels.ts';
import type { ChannelEvent } from './events.ts';

export const SIGNATURE_HEADER = 'X-CommandCenter-Signature';
export const DELIVERY_HEADER = 'X-CommandCenter-Delivery';
export const TIMESTAMP_HEADER = 'X-CommandCenter-Timestamp';
/** How old a webhook's timestamp may be when received (documented for receivers). */
export const REPLAY_WINDOW_SECONDS = 300;

export interface DeliveryRequest {
  body: string;
  headers: Record<string, string>;
}

/** Slack's limits: a header's plain_text at most 150 characters, a section's text 3000, at most 10 fields of 2000. */
const clip = (s: string, n: number) => (s.length <= n ? s : `${s.slice(0, n - 1)}…`);

/** Slack mrkdwn: &, < and > are the three characters to escape. */
const slackEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function webhookBody(deliveryId: string, event: ChannelEvent, timestamp: number) {
  return {
    id: deliveryId,
    type: event.type,
    timestamp,
    occurred_at: event.occurred_at,
    customer_id: event.customer_id,
    title: event.title,
    text: event.text,
    link: event.link,
    data: event.data,
  };
}

export function slackBody(event: ChannelEvent) {
  const blocks: Record<string, unknown>[] = [
    { type: 'header', text: { type: 'plain_text', text: clip(event.title, 150), emoji: false } },
    { type: 'section', text: { type: 'mrkdwn', text: clip(slackEscape(event.text) || ' ', 3000) } },
  ];
  if (event.facts.length > 0) {
    blocks.push({
      type: 'section',
      fields: event.facts.slice(0, 10).map((f) => ({ type: 'mrkdwn', text: clip(`*${slackEscape(f.name)}*\n${slackEscape(f.value)}`, 2000) })),
    });
  }
  const context = [`CommandCenter · ${event.customer_id}`];
  if (event.link) context.push(`<${event.link}|Open in CommandCenter>`);
  blocks.push({ type: 'context', elements: context.map((text) => ({ type: 'mrkdwn', text })) });
  return { text: clip(event.title, 3000), blocks };
}

export function teamsBody(event: ChannelEvent) {
  const body: Record<string, unknown>[] = [
    { type: 'TextBlock', text: event.title, weight: 'Bolder', size: 'Medium', wrap: true },
    { type: 'TextBlock', text: event.text, wrap: true },
  ];
  if (event.facts.length > 0) body.push({ type: 'FactSet', facts: event.facts.map((f) => ({ title: f.name, value: f.value })) });
  body.push({ type: 'TextBlock', text: `CommandCenter · ${event.customer_id}`, isSubtle: true, size: 'Small', wrap: true });
  const content: Record<string, unknown> = {
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    type: 'AdaptiveCard',
    version: '1.4',
    body,
  };
  if (event.link) content.actions = [{ type: 'Action.OpenUrl', title: 'Open in CommandCenter', url: event.link }];
  return { type: 'message', attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null, content }] };
}

/** `sha256=` and the hex HMAC-SHA256 of the raw body bytes under the channel's secret. */
export function signature(secret: string, rawBody: string): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody, 'utf8').digest('hex')}`;
}

/**
 * The request of one attempt. The delivery id is sent with every kind (Slack and Teams ignore it); the webhook's
 * body carries it too, and its timestamp is the attempt's.
 */
export function deliveryRequest(kind: ChannelKind, deliveryId: string, event: ChannelEvent, secret: string | null, now = new Date()): DeliveryRequest {
  const headers: Record<string, string> = { 'content-type': 'application/json', [DELIVERY_HEADER]: deliveryId, 'user-agent': 'CommandCenter-Notifications/1' };
  if (kind === 'webhook') {
    if (!secret) throw new Error('a webhook channel has a signing secret');
    const timestamp = Math.floor(now.getTime() / 1000);
    const body = JSON.stringify(webhookBody(deliveryId, event, timestamp));
    return { body, headers: { ...headers, [TIMESTAMP_HEADER]: String(timestamp), [SIGNATURE_HEADER]: signature(secret, body) } };
  }
  return { body: JSON.stringify(kind === 'slack' ? slackBody(event) : teamsBody(event)), headers };
}

/** The event "Send test" delivers. */
export function testEvent(customerId: string, channelName: string, now = new Date()): ChannelEvent {
  return {
    type: 'anomaly.found',
    key: `test-${now.getTime()}`,
    customer_id: customerId,
    occurred_at: now.toISOString(),
    title: `Test notice from CommandCenter`,
    text: `This is a test of the notification channel ${channelName}. No action is needed.`,
    facts: [{ name: 'Channel', value: channelName }],
    link: null,
    data: { test: true },
  };
}
