/**
 * Records a notice for the customer's notification channels: one delivery row per channel that takes the event,
 * and the first attempt's job in the outbox, in one transaction; published at once after COMMIT when the caller's
 * enqueue can, else by the reconciler. Called beside the e-mail of the same event.
 */
import type { Enqueue } from '../producer.ts';
import { enqueueInTransaction, publishAfterCommit } from '../outbox.ts';
import { withTransaction, type Pool, type Queryable } from '../db/pool.ts';
import { insertDeliveries } from '../db/notification-channels.ts';
import type { ChannelEvent } from './events.ts';

/** Resolves to the number of deliveries recorded (0 when no channel takes the event, or it was recorded before). */
export async function queueChannelEvent(pool: Pool, enqueue: Enqueue, event: ChannelEvent): Promise<number> {
  const recorded = await withTransaction(pool, async (tx) => {
    const ids = await insertDeliveries(tx, event);
    const outbox = enqueueInTransaction(tx);
    for (const id of ids) await outbox.enqueue('notify-channel', 'notify.channel', { delivery_id: id, attempt: 1 });
    return outbox.recorded;
  });
  await publishAfterCommit(enqueue, recorded);
  return recorded.length;
}

/**
 * The same inside the caller's transaction, with its in-transaction enqueue (`enqueueInTransaction(tx).enqueue`):
 * the deliveries commit or roll back with the event's own rows.
 */
export async function recordChannelEvent(tx: Queryable, enqueue: Enqueue, event: ChannelEvent): Promise<number> {
  const ids = await insertDeliveries(tx, event);
  for (const id of ids) await enqueue('notify-channel', 'notify.channel', { delivery_id: id, attempt: 1 });
  return ids.length;
}
