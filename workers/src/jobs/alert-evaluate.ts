import type { Job } from 'bullmq';
import type { QueuePayload } from '@cc/shared/queues.ts';
import { listPendingNotices, markNoticeSent, recordQuotaCrossings } from '@cc/shared/db/alerts.ts';
import { billingToday } from '@cc/shared/time.ts';
import type { WorkerDeps } from '../handlers.ts';
import { alertNotice } from '../mail/templates/alert-notice.ts';

/**
 * alert.evaluate: month-to-date spend (US/Pacific billing month of `day`, default today) of every alert in scope
 * against its quota. A first crossing in a month is recorded once (unique alert and month), then handed to notify
 * under the key alert-{id}-{month}; the notice is marked sent after the enqueue, so a retry re-enqueues under the
 * same key and notify drops the duplicate. Never two e-mails for one alert and month.
 */
export function alertEvaluateHandler(deps: WorkerDeps) {
  return async (job: Job<QueuePayload<'alert-evaluate'>>) => {
    const day = job.data.day ?? billingToday();
    const customerId = job.data.customer_id ?? null;
    const { evaluated, crossed } = await recordQuotaCrossings(deps.pool, {
      customerId,
      billingAccountId: job.data.billing_account_id ?? null,
      from: `${day.slice(0, 7)}-01`,
      to: day,
    });
    let notices = 0;
    for (const n of await listPendingNotices(deps.pool, customerId)) {
      if (n.recipients.length > 0) {
        if (!deps.enqueue) throw new Error('alert-evaluate needs a producer (WorkerDeps.enqueue) to e-mail notices');
        await deps.enqueue('notify', { to: n.recipients, ...alertNotice(n, deps.publicUrl ?? ''), key: `alert-${n.alert_id}-${n.month}` });
        notices += 1;
      }
      await markNoticeSent(deps.pool, n.id, n.recipients);
    }
    return { day, evaluated, crossed, notices };
  };
}
