import type { JobFor } from '@cc/shared/queues.ts';
import { markIntentData, markIntentSent, markIntentUncertain, markMailSent, openMailIntent, startMailAttempt, wasMailSent } from '@cc/shared/db/mail.ts';
import { withClient } from '@cc/shared/db/pool.ts';
import type { DepsOf } from '../deps.ts';

/** The Message-ID of an intent: derived from its row id, so it is stable across retries and reveals nothing of the key. */
export const intentMessageId = (intentId: string, domain: string) => `<cc-mail-${intentId}@${domain}>`;

/**
 * notify.send: one e-mail per key, effectively once. Completed jobs are removed from Redis, so the job id
 * alone cannot stop a later duplicate; the database does:
 *  1. the intent is recorded (mail_intent, one per key) before anything is sent; its id makes the Message-ID;
 *  2. the attempt is recorded, then the SMTP transaction starts;
 *  3. after the last byte of the message and before its end-of-data mark, `data_at` is recorded;
 *  4. after the server's 250 the intent is marked sent (and mail_sent, which marks a delivered alert notice).
 * A retry reads the record: sent → nothing to do; an attempt that died before step 3 → sent again (the server
 * discards a message without its end-of-data mark); one that died after step 3 (the uncertain window: the mark
 * and the 250 may have gone through) → asks the receiving server when the adapter can (the local one); a relay
 * cannot say, and then the intent is counted as sent and flagged `uncertain_at` (at most once), or, with
 * MAIL_RESEND_UNCERTAIN=true, sent again under the same Message-ID (at least once). docs/operations.md.
 */
export function notifyHandler(deps: DepsOf<'notify'>) {
  const send = sendOnce(deps);
  // One job may run in two workers at once: Redis lost its lock (a failover, a restart from the append-only file) and
  // another worker took it back, or the reconciler published it again while it ran. Both would pass the checks below
  // before either recorded anything, so each key is sent under a lock of the database: the second waits, then finds it
  // sent. A worker that dies holding it loses its connection, and with it the lock.
  return (job: JobFor<'notify'>) =>
    withClient(deps.pool, async (lock) => {
      await lock.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [`notify:${job.data.key}`]);
      try {
        return await send(job);
      } finally {
        await lock.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [`notify:${job.data.key}`]);
      }
    });
}

function sendOnce(deps: DepsOf<'notify'>) {
  return async (job: JobFor<'notify'>) => {
    const { to, subject, text, html, key } = job.data;
    if (await wasMailSent(deps.pool, key)) return { skipped: 'already sent' };
    const intent = await openMailIntent(deps.pool, { key, recipients: to, subject });
    const messageId = intentMessageId(intent.id, deps.mailDomain);
    if (intent.sent_at) {
      await markMailSent(deps.pool, key, to);
      return { skipped: 'already sent' };
    }
    if (intent.data_at) {
      if (deps.mailer.wasDelivered) {
        if (await deps.mailer.wasDelivered(messageId)) {
          await markIntentSent(deps.pool, intent.id, to);
          await markMailSent(deps.pool, key, to);
          return { skipped: 'delivered before the last crash' };
        }
      } else if (!deps.mailer.resendUncertain) {
        await markIntentUncertain(deps.pool, intent.id);
        await markMailSent(deps.pool, key, to);
        return { skipped: 'uncertain: the whole message reached the relay before the last crash; counted as sent' };
      }
    }
    await startMailAttempt(deps.pool, intent.id);
    const result = await deps.mailer.send({ to, subject, text, html, messageId }, { beforeEndOfData: () => markIntentData(deps.pool, intent.id) });
    await markIntentSent(deps.pool, intent.id, result.accepted);
    await markMailSent(deps.pool, key, result.accepted);
    return { accepted: result.accepted };
  };
}
