/**
 * A notice for the notification channels: what happened, said once, from which every kind builds its body
 * (bodies.ts). Built beside the e-mail of the same event (the anomaly, alert, license order, provisioning and ticket
 * notices) and recorded with `queueChannelEvent` (shared/src/db/notification-channels.ts).
 */
import type { ChannelEventType } from '../schemas/notification-channels.ts';

export interface ChannelEvent {
  type: ChannelEventType;
  /** The event's idempotency key (no `:`): the same key never makes two deliveries on one channel. */
  key: string;
  customer_id: string;
  /** ISO 8601 instant. */
  occurred_at: string;
  /** One line (the e-mail's subject). */
  title: string;
  /** A few lines of plain text. */
  text: string;
  /** Name / value pairs shown as fields (Slack) or facts (Teams). */
  facts: { name: string; value: string }[];
  /** Where the screen shows it; null when none does. */
  link: string | null;
  /** The event's own data (ids, amounts), passed through in the webhook body. */
  data: Record<string, unknown>;
}

/** A key usable in a job id and a delivery row (no `:`). */
export const eventKey = (...parts: (string | number)[]) => parts.map((p) => String(p).replace(/:/g, '_')).join('-');
