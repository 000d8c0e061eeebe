import type { JobFor } from '@cc/shared/queues.ts';
import { queueChannelEvent } from '@cc/shared/notification-channels/queue.ts';
import { eventFromNotice } from '@cc/shared/notification-channels/notices.ts';
import { screenLink } from '@cc/shared/links.ts';
import { listPendingNotices, markNoticeSent, recordQuotaCrossings } from '@cc/shared/db/alerts.ts';
import { addDays, billingToday } from '@cc/shared/time.ts';
import { markNoticeQueued, queuedNoticeIds } from '@cc/shared/db/alert-delivery.ts';
import type { DepsOf } from '../deps.ts';
import { alertNotice } from '../mail/templates/alert-notice.ts';

/** Days into a month during which the previous month is evaluated too. */
const LATE_DATA_DAYS = 2;

const monthStart = (day: string) => `${day.slice(0, 7)}-01`;

/**
 * alert.evaluate: month-to-date spend (US/Pacific billing month of `day`, default today) of every alert in scope
 * against its quota. A first crossing in a month is recorded once (unique alert and month), then handed to notify
 * under the key alert-{id}-{month} (recorded in the outbox, so a Redis outage cannot lose it), then marked queued; it
 * is marked notified only when the e-mail was delivered (migration 040). A retry between the enqueue and the mark
 * re-enqueues under the same key and notify drops the duplicate. Never two e-mails for one alert and month.
 */
export function alertEvaluateHandler(deps: DepsOf<'alert-evaluate'>) {
  return async (job: JobFor<'alert-evaluate'>) => {
    const day = job.data.day ?? billingToday();
    const customerId = job.data.customer_id ?? null;
    const billingAccountId = job.data.billing_account_id ?? null;
    const { evaluated, crossed } = await recordQuotaCrossings(deps.pool, { customerId, billingAccountId, from: monthStart(day), to: day });
    // Exports settle within two days: early in a month, the last month's late spend still gets its (first) crossing.
    let lateCrossed = 0;
    if (Number(day.slice(8, 10)) <= LATE_DATA_DAYS) {
      const lastMonthEnd = addDays(monthStart(day), -1);
      lateCrossed = (await recordQuotaCrossings(deps.pool, { customerId, billingAccountId, from: monthStart(lastMonthEnd), to: lastMonthEnd })).crossed;
    }
    let notices = 0;
    const pending = await listPendingNotices(deps.pool, customerId);
    const queued = await queuedNoticeIds(deps.pool, pending.map((n) => String(n.id)));
    for (const n of pending) {
      // The notification channels hear of it too (once per channel: the same key as the e-mail).
      await queueChannelEvent(deps.pool, deps.enqueue, eventFromNotice('alert.over_quota', `alert-${n.alert_id}-${n.month}`, n.customer_id, alertNotice(n, deps.publicUrl),
        screenLink(deps.publicUrl, '/billing/alerts', { customerId: n.customer_id }),
        { alert_id: n.alert_id, month: n.month, billing_account_id: n.billing_account_id, spend: n.spend, quota: n.quota, currency: n.currency },
        [{ name: 'Spend', value: `${n.spend} ${n.currency}` }, { name: 'Quota', value: `${n.quota} ${n.currency}` }, { name: 'Billing account', value: n.billing_account_id }]));
      if (n.recipients.length === 0) {
        await markNoticeSent(deps.pool, n.id, n.recipients);
      } else if (!queued.has(String(n.id))) {
        // The enqueue records the e-mail in the outbox first; the notice turns `notified` when it is delivered.
        await deps.enqueue('notify', 'notify.send', { to: n.recipients, ...alertNotice(n, deps.publicUrl), key: `alert-${n.alert_id}-${n.month}` });
        await markNoticeQueued(deps.pool, String(n.id), n.recipients);
        notices += 1;
      }
    }
    return { day, evaluated, crossed: crossed + lateCrossed, notices };
  };
}
