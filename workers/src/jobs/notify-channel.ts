import type { JobFor } from '@cc/shared/queues.ts';
import { withClient } from '@cc/shared/db/pool.ts';
import { publishAfterCommit } from '@cc/shared/outbox.ts';
import type { DepsOf } from '../deps.ts';
import { deliverAttempt } from '../notification-channels/deliver.ts';

/**
 * notify.channel: one attempt of one notice to a notification channel (workers/src/notification-channels/deliver.ts).
 * Under a database lock per delivery, as notify.send: a job Redis handed to two workers at once (a lost lock, the
 * reconciler publishing it again) sends once; the second finds the attempt's outcome recorded. A worker that dies
 * holding it loses its connection, and with it the lock.
 */
export function notifyChannelHandler(deps: DepsOf<'notify-channel'>) {
  return async (job: JobFor<'notify-channel'>) => {
    const { recorded, ...result } = await withClient(deps.pool, async (lock) => {
      const key = `notify-channel:${job.data.delivery_id}`;
      await lock.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [key]);
      try {
        return await deliverAttempt(lock, deps, job.data);
      } finally {
        await lock.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [key]);
      }
    });
    // the next attempt's job, committed above: queued now if Redis answers, else by the reconciler
    await publishAfterCommit(deps.enqueue, recorded);
    return result;
  };
}
