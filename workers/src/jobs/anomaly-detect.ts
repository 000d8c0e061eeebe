import { createHash } from 'node:crypto';
import { queueChannelEvent } from '@cc/shared/notification-channels/queue.ts';
import { eventFromNotice } from '@cc/shared/notification-channels/notices.ts';
import { screenLink } from '@cc/shared/links.ts';
import type { JobFor } from '@cc/shared/queues.ts';
import { withTransaction } from '@cc/shared/db/pool.ts';
import { detectAnomalies, listUnnotifiedAnomalies, markAnomaliesNotified, type UnnotifiedAnomaly } from '@cc/shared/db/anomalies.ts';
import { explainAnomaly } from '@cc/shared/db/anomalies-explain.ts';
import { ANOMALY_CANDIDATE_RETENTION_DAYS, ANOMALY_DATE_OFFSET_DAYS, ANOMALY_MIN_HISTORY_DAYS, ANOMALY_WINDOW_DAYS } from '@cc/shared/insights/anomaly-rule.ts';
import { addDays, billingToday } from '@cc/shared/time.ts';
import type { DepsOf } from '../deps.ts';
import { anomalyNotice } from '../mail/templates/anomaly-notice.ts';

/**
 * anomaly.detect: judges one day (default two days before today, US/Pacific) for every account of one customer or of
 * every customer with anomaly_detection on, stores the result (a re-run replaces it), then e-mails the anomalies that
 * met the customer's thresholds and were not e-mailed yet, one notice per account and day, to the customer's alert list.
 * Safe to retry: the notify key is derived from the anomaly ids it lists, and rows are marked after the enqueue.
 */
export function anomalyDetectHandler(deps: DepsOf<'anomaly-detect'>) {
  return async (job: JobFor<'anomaly-detect'>) => {
    const date = job.data.date ?? addDays(billingToday(), -ANOMALY_DATE_OFFSET_DAYS);
    const customerId = job.data.customer_id ?? null;
    const runs = await withTransaction(deps.pool, (tx) =>
      detectAnomalies(tx, { date, customerId, windowDays: ANOMALY_WINDOW_DAYS, minHistoryDays: ANOMALY_MIN_HISTORY_DAYS, candidateRetentionDays: ANOMALY_CANDIDATE_RETENTION_DAYS }),
    );
    const notices = await notifyNewAnomalies(deps, date, customerId);
    return { date, runs, notices };
  };
}

async function notifyNewAnomalies(deps: DepsOf<'anomaly-detect'>, date: string, customerId: string | null): Promise<number> {
  const pending = await listUnnotifiedAnomalies(deps.pool, date, customerId);
  const groups = new Map<string, UnnotifiedAnomaly[]>();
  for (const a of pending) {
    const k = `${a.customer_id}\u0000${a.billing_account_id}`;
    groups.set(k, [...(groups.get(k) ?? []), a]);
  }
  let sent = 0;
  for (const anomalies of groups.values()) {
    const first = anomalies[0];
    const mail = anomalyNotice(first.customer_name, first.billing_account_id, date, anomalies, deps.publicUrl, await sentences(deps, anomalies));
    // The notification channels hear of it whoever is on the alert list (once per channel: the e-mail's key).
    await queueChannelEvent(deps.pool, deps.enqueue, eventFromNotice('anomaly.found', noticeKey(anomalies), first.customer_id, mail,
      screenLink(deps.publicUrl, '/anomalydetection', { customerId: first.customer_id, billingAccountId: first.billing_account_id }),
      { date, billing_account_id: first.billing_account_id, anomalies: anomalies.map((a) => ({ id: a.id, project_id: a.project_id, service: a.service, currency: a.currency, cost: a.to_date_cost, mean_cost: a.mean_cost })) },
      [{ name: 'Day', value: date }, { name: 'Billing account', value: first.billing_account_id }, { name: 'Anomalies', value: String(anomalies.length) }]));
    if (first.recipients.length > 0) {
      await deps.enqueue('notify', 'notify.send', { to: first.recipients, ...mail, key: noticeKey(anomalies) });
      sent += 1;
    }
    // Nobody on the alert list: marked all the same, so a later addition does not receive old findings.
    await markAnomaliesNotified(deps.pool, anomalies.map((a) => a.id));
  }
  return sent;
}

/** Why each anomaly is one (its stored contributors and the events around the day), by anomaly id. */
async function sentences(deps: DepsOf<'anomaly-detect'>, anomalies: UnnotifiedAnomaly[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const a of anomalies) {
    const e = await explainAnomaly(deps.pool, {
      customerId: a.customer_id,
      billingAccountId: a.billing_account_id,
      date: a.date,
      projectId: a.project_id,
      service: a.service,
      windowDays: ANOMALY_WINDOW_DAYS,
      // the notice goes to the alert list, never to a viewer (listUnnotifiedAnomalies leaves them out)
      projectOnly: false,
    });
    if (e) out.set(a.id, e.sentence);
  }
  return out;
}

/** The same set of anomalies always gives the same key, so a retried job never sends the notice twice. */
function noticeKey(anomalies: UnnotifiedAnomaly[]): string {
  const ids = anomalies.map((a) => a.id).sort((a, b) => Number(a) - Number(b));
  const digest = createHash('sha256').update(ids.join(',')).digest('hex').slice(0, 24);
  return `anomaly-${ids[0]}-${digest}`;
}
