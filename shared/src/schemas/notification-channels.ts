/**
 * Notification channels of a customer: where its notices go besides e-mail (a signed webhook, a Slack incoming
 * webhook, a Microsoft Teams Workflows webhook), each with the events it takes. Routes in api/src/routes/channels/.
 *
 * | method | path                                          | permission    | tenant        |
 * |--------|-----------------------------------------------|---------------|---------------|
 * | GET    | /v1/customers/:id/channels/                   | alerts_read   | params id     |
 * | POST   | /v1/customers/:id/channels/                   | alerts_create | params id     |
 * | PATCH  | /v1/customers/:id/channels/:channel/          | alerts_update | params id     |
 * | DELETE | /v1/customers/:id/channels/:channel/          | alerts_update | params id     |
 * | POST   | /v1/customers/:id/channels/:channel/test/     | alerts_update | params id     |
 *
 * A customerViewer holds no alerts_* permission, so it can neither see nor change channels. A channel of another
 * customer answers 404 'Notification channel not found' whatever its id. The URL and the signing secret are never
 * answered back (the secret once, in the answer of its creation). docs/decisions-notifications.md.
 */
import { Type, type Static } from '@sinclair/typebox';

export const CHANNEL_KINDS = ['webhook', 'slack', 'teams'] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

export const CHANNEL_KIND_LABELS: Record<ChannelKind, string> = {
  webhook: 'Webhook',
  slack: 'Slack',
  teams: 'Microsoft Teams',
};

/** The events a channel may take (the `type` of a webhook body). */
export const CHANNEL_EVENTS = [
  'anomaly.found',
  'alert.over_quota',
  'license_order.placed',
  'license_order.decided',
  'project_request.created',
  'project_request.decided',
  'project_request.failed',
  'ticket.commented',
] as const;
export type ChannelEventType = (typeof CHANNEL_EVENTS)[number];

export const CHANNEL_EVENT_LABELS: Record<ChannelEventType, string> = {
  'anomaly.found': 'Anomaly found',
  'alert.over_quota': 'Alert over quota',
  'license_order.placed': 'License order placed',
  'license_order.decided': 'License order decided',
  'project_request.created': 'Project created (request provisioned)',
  'project_request.decided': 'Project request decided',
  'project_request.failed': 'Project request failed',
  'ticket.commented': 'Ticket commented by the provider',
};

const EventList = Type.Array(Type.Union(CHANNEL_EVENTS.map((e) => Type.Literal(e))), { minItems: 1, maxItems: CHANNEL_EVENTS.length, uniqueItems: true });

export const ChannelParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) });
export const OneChannelParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 200 }),
  channel: Type.String({ minLength: 1, maxLength: 100 }),
});

export const ChannelCreate = Type.Object({
  kind: Type.Union(CHANNEL_KINDS.map((k) => Type.Literal(k))),
  name: Type.String({ minLength: 1, maxLength: 100 }),
  /** https (http only to a loopback address outside production). */
  url: Type.String({ minLength: 1, maxLength: 2048 }),
  events: EventList,
});
export type ChannelCreate = Static<typeof ChannelCreate>;

export const ChannelUpdate = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  events: Type.Optional(EventList),
});
export type ChannelUpdate = Static<typeof ChannelUpdate>;

/** What the screen sees of a channel: never the URL (Slack's and Teams' carry their credential) nor the secret. */
export const Channel = Type.Object({
  id: Type.String(),
  kind: Type.Union(CHANNEL_KINDS.map((k) => Type.Literal(k))),
  name: Type.String(),
  /** The URL's host, to tell channels apart. */
  host: Type.String(),
  events: Type.Array(Type.String()),
  created_at: Type.String(),
  /** Deliveries given up (after a day of retries) since the channel's last delivered one. */
  failed_deliveries: Type.Integer(),
  last_delivered_at: Type.Union([Type.String(), Type.Null()]),
});
export type Channel = Static<typeof Channel>;

export const ChannelList = Type.Object({ items: Type.Array(Channel) });
export type ChannelList = Static<typeof ChannelList>;

/** The answer of a creation: the webhook's signing secret, shown this once. */
export const ChannelCreated = Type.Object({
  channel: Channel,
  secret: Type.Union([Type.String(), Type.Null()]),
});
export type ChannelCreated = Static<typeof ChannelCreated>;

/** The outcome of "Send test": sent now, not queued. */
export const ChannelTestResult = Type.Object({
  ok: Type.Boolean(),
  status: Type.Union([Type.Integer(), Type.Null()]),
  detail: Type.String(),
});
export type ChannelTestResult = Static<typeof ChannelTestResult>;
