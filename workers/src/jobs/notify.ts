import type { Job } from 'bullmq';
import type { QueuePayload } from '@cc/shared/queues.ts';
import type { Mailer } from '@cc/shared/ports/mailer.ts';

export interface NotifyDeps {
  mailer: Mailer;
  mailDomain: string;
}

/**
 * notify.send: one e-mail. The job id is derived from the command's key, so the same notice is
 * enqueued once; the Message-ID is derived from it too, so a retry after an unacknowledged send
 * is recognisable downstream as the same message.
 */
export function notifyHandler(deps: NotifyDeps) {
  return async (job: Job<QueuePayload<'notify'>>) => {
    const { to, subject, text, html, key } = job.data;
    const result = await deps.mailer.send({ to, subject, text, html, messageId: `<${key}@${deps.mailDomain}>` });
    return { accepted: result.accepted };
  };
}
