/**
 * Notification channels and their deliveries (migration 1700000000117_notification_channels.sql). The URL and the
 * signing secret are stored sealed by the caller (shared/src/secret-box.ts, bound to the channel id) and read back
 * only by the sender (`findChannelSecrets`, `findDelivery`); the screen's rows never carry them.
 */
import type { Channel, ChannelKind } from '../schemas/notification-channels.ts';
import type { ChannelEvent } from '../notification-channels/events.ts';
import type { Queryable } from './pool.ts';

const CHANNEL_COLUMNS = `c.id::text, c.kind, c.name, c.url_host AS host, c.events, to_json(c.created_at)#>>'{}' AS created_at,
  (SELECT count(*)::int FROM channel_delivery d WHERE d.channel_id = c.id AND d.failed_at IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM channel_delivery s WHERE s.channel_id = c.id AND s.delivered_at > d.failed_at)) AS failed_deliveries,
  (SELECT to_json(max(s.delivered_at))#>>'{}' FROM channel_delivery s WHERE s.channel_id = c.id) AS last_delivered_at`;

/** The customer's channels, oldest first. */
export async function listChannels(db: Queryable, customerId: string): Promise<Channel[]> {
  const { rows } = await db.query<Channel>(`SELECT ${CHANNEL_COLUMNS} FROM notification_channel c WHERE c.customer_id = $1 ORDER BY c.created_at, c.id`, [customerId]);
  return rows;
}

async function findChannel(db: Queryable, customerId: string, id: string): Promise<Channel | null> {
  const { rows } = await db.query<Channel>(`SELECT ${CHANNEL_COLUMNS} FROM notification_channel c WHERE c.customer_id = $1 AND c.id = $2`, [customerId, id]);
  return rows[0] ?? null;
}

export interface NewChannel {
  id: string;
  customer_id: string;
  kind: ChannelKind;
  name: string;
  url_sealed: string;
  secret_sealed: string | null;
  url_host: string;
  events: string[];
  created_by: string;
}

export async function insertChannel(db: Queryable, c: NewChannel): Promise<Channel> {
  await db.query(
    `INSERT INTO notification_channel (id, customer_id, kind, name, url_sealed, secret_sealed, url_host, events, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [c.id, c.customer_id, c.kind, c.name, c.url_sealed, c.secret_sealed, c.url_host, c.events, c.created_by],
  );
  return (await findChannel(db, c.customer_id, c.id))!;
}

/** Renames a channel or changes its events; null when the customer has no such channel. */
export async function updateChannel(db: Queryable, customerId: string, id: string, change: { name?: string; events?: string[] }): Promise<Channel | null> {
  const { rowCount } = await db.query(
    `UPDATE notification_channel SET name = coalesce($3, name), events = coalesce($4, events) WHERE customer_id = $1 AND id = $2`,
    [customerId, id, change.name ?? null, change.events ?? null],
  );
  return rowCount ? findChannel(db, customerId, id) : null;
}

/** Deletes a channel and its deliveries (a queued job then finds none and ends). */
export async function deleteChannel(db: Queryable, customerId: string, id: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM notification_channel WHERE customer_id = $1 AND id = $2', [customerId, id]);
  return (rowCount ?? 0) > 0;
}

export interface ChannelSecrets {
  id: string;
  kind: ChannelKind;
  name: string;
  url_sealed: string;
  secret_sealed: string | null;
}

/** What the sender needs of one of the customer's channels; null when it has none of that id. */
export async function findChannelSecrets(db: Queryable, customerId: string, id: string): Promise<ChannelSecrets | null> {
  const { rows } = await db.query<ChannelSecrets>(
    'SELECT id::text, kind, name, url_sealed, secret_sealed FROM notification_channel WHERE customer_id = $1 AND id = $2',
    [customerId, id],
  );
  return rows[0] ?? null;
}

/**
 * One delivery row per channel of the event's customer that takes its type; an event already recorded on a channel
 * (same key) adds none there. Returns the new deliveries' ids.
 */
export async function insertDeliveries(db: Queryable, event: ChannelEvent): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO channel_delivery (id, channel_id, customer_id, event_key, event)
     SELECT gen_random_uuid(), c.id, c.customer_id, $3, $4 FROM notification_channel c WHERE c.customer_id = $1 AND $2 = ANY(c.events)
     ON CONFLICT (channel_id, event_key) DO NOTHING RETURNING id::text`,
    [event.customer_id, event.type, event.key, JSON.stringify(event)],
  );
  return rows.map((r) => r.id);
}

export interface DeliveryRow extends ChannelSecrets {
  delivery_id: string;
  customer_id: string;
  event: ChannelEvent;
  created_at: Date;
  attempt: number;
  delivered_at: Date | null;
  failed_at: Date | null;
}

/** A delivery with its channel's kind and sealed secrets; null when gone (its channel was deleted). */
export async function findDelivery(db: Queryable, deliveryId: string): Promise<DeliveryRow | null> {
  const { rows } = await db.query<DeliveryRow>(
    `SELECT d.id::text AS delivery_id, d.customer_id, d.event, d.created_at, d.attempt, d.delivered_at, d.failed_at,
            c.id::text, c.kind, c.name, c.url_sealed, c.secret_sealed
       FROM channel_delivery d JOIN notification_channel c ON c.id = d.channel_id WHERE d.id = $1`,
    [deliveryId],
  );
  return rows[0] ?? null;
}

/** Recorded before the request leaves: a crash after it shows an attempt that may have reached the receiver. */
export async function markAttemptStarted(db: Queryable, deliveryId: string): Promise<void> {
  await db.query('UPDATE channel_delivery SET attempted_at = now() WHERE id = $1', [deliveryId]);
}

export interface AttemptOutcome {
  status: number | null;
  error: string | null;
  response: string | null;
}

const kb = (s: string | null) => (s === null ? null : s.slice(0, 1024));

export async function markDelivered(db: Queryable, deliveryId: string, o: AttemptOutcome): Promise<void> {
  await db.query(
    'UPDATE channel_delivery SET delivered_at = now(), next_attempt_at = NULL, last_status = $2, last_error = NULL, last_response = $3 WHERE id = $1',
    [deliveryId, o.status, kb(o.response)],
  );
}

/** The attempt failed and another follows at `at` (its job is queued in the same transaction). */
export async function markRetry(db: Queryable, deliveryId: string, nextAttempt: number, at: Date, o: AttemptOutcome): Promise<void> {
  await db.query(
    'UPDATE channel_delivery SET attempt = $2, next_attempt_at = $3, last_status = $4, last_error = $5, last_response = $6 WHERE id = $1',
    [deliveryId, nextAttempt, at, o.status, kb(o.error), kb(o.response)],
  );
}

/** Given up: shown in the operations inbox until a later delivery of the channel goes through. */
export async function markGivenUp(db: Queryable, deliveryId: string, o: AttemptOutcome): Promise<void> {
  await db.query(
    'UPDATE channel_delivery SET failed_at = now(), next_attempt_at = NULL, last_status = $2, last_error = $3, last_response = $4 WHERE id = $1',
    [deliveryId, o.status, kb(o.error), kb(o.response)],
  );
}
