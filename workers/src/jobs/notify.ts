import type { JobFor } from '@cc/shared/queues.ts';
import { markMailSent, wasMailSent } from '@cc/shared/db/mail.ts';
import type { DepsOf } from '../deps.ts';

/**
 * notify.send: one e-mail per key, ever. Completed jobs are removed from Redis, so the job id alone
 * cannot stop a later duplicate; the `mail_sent` table does. The mark is written after the send:
 * a crash in between re-sends once (at-least-once) rather than losing the notice, and the stable
 * Message-ID lets mail clients fold such a duplicate.
 */
export function notifyHandler(deps: DepsOf<'notify'>) {
  return async (job: JobFor<'notify'>) => {
    const { to, subject, text, html, key } = job.data;
    if (await wasMailSent(deps.pool, key)) return { skipped: 'already sent' };
    const result = await deps.mailer.send({ to, subject, text, html, messageId: `<${key}@${deps.mailDomain}>` });
    await markMailSent(deps.pool, key, result.accepted);
    return { accepted: result.accepted };
  };
}
