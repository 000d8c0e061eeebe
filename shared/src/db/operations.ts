/**
 * The operations inbox: what needs a person now across every customer, read in one statement from the tables that
 * already hold each state (no copy to keep in step: an item disappears when its row is resolved). Decisions (which
 * state counts, the urgency order, the anomaly window) in docs/decisions-operations.md.
 */
import type { InboxItem, InboxKind } from '../schemas/operations.ts';
import { INBOX_KINDS } from '../schemas/operations.ts';
import { TICKET_PRIORITIES, type TicketPriority } from '../tickets/rules.ts';
import { withTransaction, type Pool, type Queryable } from './pool.ts';

/** Minutes a ticket of each priority may wait for its first response before it is in the inbox. */
export type FirstResponseTargets = Record<TicketPriority, number>;

/** A failed license.sync job of the queue (the worker keeps no table of sync failures). */
export interface FailedLicenseSync {
  customer_id: string | null;
  failed_at: string;
  reason: string;
}

export interface InboxInput {
  /** US/Pacific today: the alert month and the stale-data cut-off are counted from it. */
  today: string;
  /** Anomalies found after this instant are new; null: those of the last 7 days. */
  anomaliesSeenAt: string | null;
  targets: FirstResponseTargets;
  /** A billing account whose latest usage day is more than this many days before today is stale. */
  staleDays: number;
  licenseSyncFailures: FailedLicenseSync[];
}

/** When no admin has looked yet: anomalies of the last week count as new (older ones are in the nightly e-mails). */
export const NEW_ANOMALY_WINDOW_DAYS = 7;

// $1 today (date), $2 anomalies seen at (timestamptz or NULL), $3 first-response targets in minutes [P1..P4],
// $4 stale days, $5 failed license syncs (jsonb [{customer_id, failed_at, reason}])
const INBOX_SQL = `
WITH accounts AS (
  SELECT c.customer_id, a.id AS billing_account_id
    FROM customer c CROSS JOIN LATERAL unnest(c.billing_account_ids) AS a(id)
), items AS (
  SELECT 'project_request_pending' AS kind, 2 AS urgency, p.customer_id, p.id::text AS ref, p.created_at AS since,
         format('Project request %s awaits approval', p.project_name) AS what,
         format('Requested by %s from template %s', p.requester, p.template_name) AS detail, '/projectprovisioning' AS link,
         jsonb_build_object('id', p.id, 'project_name', p.project_name, 'folder_name', p.folder_name, 'state', p.state) AS project_request,
         NULL::jsonb AS license_order
    FROM project_request p WHERE p.state = 'Pending approval'
  UNION ALL
  SELECT 'provisioning_failed', 1, p.customer_id, p.id::text, p.updated_at,
         format('Provisioning of %s failed%s', p.project_name, coalesce(' at step ' || p.failed_step, '')), p.error, '/projectprovisioning',
         jsonb_build_object('id', p.id, 'project_name', p.project_name, 'folder_name', p.folder_name, 'state', p.state), NULL
    FROM project_request p WHERE p.state = 'Failed'
  UNION ALL
  SELECT CASE o.status WHEN 'Pending' THEN 'license_order_pending' ELSE 'license_order_failed' END,
         CASE o.status WHEN 'Pending' THEN 2 ELSE 1 END, o.customer_id, o.order_id::text, coalesce(o.decided_at, o.order_time),
         format('License order of %s %s by %s %s', o.order_amount, o.sku_name, o.order_by,
                CASE o.status WHEN 'Pending' THEN 'awaits approval' ELSE 'failed' END),
         CASE o.status WHEN 'Pending' THEN nullif(o.comment, '') ELSE o.error END, '/workspacelicense', NULL,
         jsonb_build_object('order_id', o.order_id, 'domain', c.domain_name, 'sku_name', o.sku_name, 'order_amount', o.order_amount,
                            'order_by', o.order_by, 'status', o.status)
    FROM license_order o JOIN customer c ON c.customer_id = o.customer_id
   WHERE o.status IN ('Pending', 'Failed')
  UNION ALL
  -- a failed or rejected batch with no later batch of its source on its account (a later success resolves it); the
  -- failures are few, so this probes only them (ingest_batch_failed_idx), never every account
  SELECT 'billing_ingest_failed', 1, b.customer_id, b.billing_account_id || '/' || b.source, coalesce(b.finished_at, b.started_at),
         format('Billing ingest (%s) of %s %s', CASE b.source WHEN 'bigquery' THEN 'BigQuery' WHEN 'focus-file' THEN 'file' ELSE 'generated' END,
                b.billing_account_id, b.status),
         coalesce(b.error->>'message', (b.error->>'error_count') || ' rows refused'), '/', NULL, NULL
    FROM ingest_batch b
   WHERE b.status IN ('failed', 'rejected')
     AND EXISTS (SELECT 1 FROM customer c WHERE c.customer_id = b.customer_id AND b.billing_account_id = ANY(c.billing_account_ids))
     AND NOT EXISTS (SELECT 1 FROM ingest_batch n WHERE n.billing_account_id = b.billing_account_id AND n.source = b.source
                        AND (n.started_at, n.id) > (b.started_at, b.id))
  UNION ALL
  SELECT 'billing_ingest_failed', 1, e.customer_id, e.billing_account_id || '/' || e.kind, coalesce(e.last_checked_at, e.updated_at),
         format('Billing export (%s) of %s could not be read', CASE e.kind WHEN 'aws-data-exports' THEN 'AWS' ELSE 'Azure' END, e.billing_account_id),
         e.last_error, '/', NULL, NULL
    FROM billing_export_source e WHERE e.last_error IS NOT NULL
  UNION ALL
  SELECT 'billing_data_stale', 3, f.customer_id, f.billing_account_id, (f.last_day + 1)::timestamptz,
         format('Billing data (%s) of %s ends on %s', f.label, f.billing_account_id, f.last_day), NULL, '/', NULL, NULL
    FROM (
      SELECT a.customer_id, a.billing_account_id,
             -- the key's newest day, read backwards and stopped at once (max() read every day of the account)
             (SELECT d.usage_date FROM cost_daily d WHERE d.billing_account_id = a.billing_account_id AND d.customer_id = a.customer_id
               ORDER BY d.usage_date DESC LIMIT 1) AS last_day,
             coalesce(CASE e.kind WHEN 'aws-data-exports' THEN 'AWS' WHEN 'azure-cost-exports' THEN 'Azure' END,
                      (SELECT CASE b.source WHEN 'bigquery' THEN 'BigQuery' WHEN 'focus-file' THEN 'file' ELSE 'generated' END
                         FROM ingest_batch b WHERE b.billing_account_id = a.billing_account_id AND b.status = 'succeeded'
                        ORDER BY b.started_at DESC LIMIT 1), 'no source') AS label
        FROM accounts a LEFT JOIN billing_export_source e ON e.billing_account_id = a.billing_account_id
    ) f
   WHERE f.last_day < $1::date - $4::int
  UNION ALL
  SELECT 'sync_failing', 1, t.customer_id, 'tickets', min(t.updated_at),
         format('Ticket sync: %s ticket(s) not written through', count(*)), max(t.sync_error), '/supportrequest', NULL, NULL
    FROM ticket t WHERE t.sync_state = 'failed' GROUP BY t.customer_id
  UNION ALL
  SELECT 'sync_failing', 1, r.customer_id, 'inventory', coalesce(r.finished_at, r.started_at), 'Inventory sync failed', r.error, '/inventory', NULL, NULL
    FROM customer c CROSS JOIN LATERAL (SELECT * FROM inventory_sync_run r WHERE r.customer_id = c.customer_id AND r.status <> 'running'
                                          ORDER BY r.id DESC LIMIT 1) r
   WHERE r.status = 'failed'
  UNION ALL
  SELECT 'sync_failing', 1, m.customer_id, 'monitoring', coalesce(m.last_error_at, m.updated_at), 'Monitoring dashboard provisioning failed', m.last_error,
         '/systemhealth', NULL, NULL
    FROM monitoring_account m WHERE m.status = 'failed'
  UNION ALL
  -- a failed license.sync whose customer has not been synced since
  SELECT 'sync_failing', 1, j.customer_id, 'licenses', max(j.failed_at), 'License sync failed', (array_agg(j.reason ORDER BY j.failed_at DESC))[1],
         '/workspacelicense', NULL, NULL
    FROM jsonb_to_recordset($5::jsonb) AS j(customer_id text, failed_at timestamptz, reason text)
   WHERE j.customer_id IS NULL
      OR (EXISTS (SELECT 1 FROM customer c WHERE c.customer_id = j.customer_id)
          AND NOT EXISTS (SELECT 1 FROM license l WHERE l.customer_id = j.customer_id AND l.synced_at > j.failed_at))
   GROUP BY j.customer_id
  UNION ALL
  SELECT 'anomalies_found', 3, x.customer_id, 'anomalies', max(r.computed_at),
         format('%s anomal%s found since you last looked', count(*), CASE count(*) WHEN 1 THEN 'y' ELSE 'ies' END), NULL, '/anomalydetection', NULL, NULL
    FROM anomaly_run r JOIN anomaly x ON x.customer_id = r.customer_id AND x.billing_account_id = r.billing_account_id AND x.date = r.date
   WHERE r.computed_at > coalesce($2::timestamptz, now() - interval '${NEW_ANOMALY_WINDOW_DAYS} days') AND x.flagged
   GROUP BY x.customer_id
  UNION ALL
  SELECT 'alert_over_quota', 3, n.customer_id, n.alert_id::text, n.created_at,
         format('Alert over quota: %s %s spent of %s', round(n.spend, 2), n.currency, round(n.quota, 2)),
         CASE a.group_by WHEN 'service' THEN 'Total' ELSE a.label_key || '=' || a.label_value END, '/billing/alerts', NULL, NULL
    FROM alert_notice n JOIN alert a ON a.id = n.alert_id
   WHERE n.month = to_char($1::date, 'YYYY-MM')
  UNION ALL
  SELECT 'ticket_first_response_overdue', CASE WHEN t.priority IN ('P1', 'P2') THEN 1 ELSE 3 END, t.customer_id, t.id::text, t.created_at,
         format('%s ticket %s awaits a first response', t.priority, coalesce(t.jira_key, left(t.summary, 60))), t.summary,
         '/supportrequest/view/' || t.id, NULL, NULL
    FROM ticket t
   WHERE t.first_response_at IS NULL AND t.status IN ('Open', 'In Progress')
     AND t.created_at < now() - make_interval(mins => ($3::int[])[substr(t.priority, 2)::int])
  UNION ALL
  -- notices a notification channel gave up on (a day of retries), until a later one of the channel goes through
  SELECT 'channel_delivery_failed', 1, ch.customer_id, ch.id::text, max(d.failed_at),
         format('Notification channel %s: %s notice%s not delivered', ch.name, count(*), CASE count(*) WHEN 1 THEN '' ELSE 's' END),
         (array_agg(d.last_error ORDER BY d.failed_at DESC))[1], '/customermanagement/update/' || ch.customer_id, NULL, NULL
    FROM channel_delivery d JOIN notification_channel ch ON ch.id = d.channel_id
   WHERE d.failed_at IS NOT NULL
     AND NOT EXISTS (SELECT 1 FROM channel_delivery s WHERE s.channel_id = d.channel_id AND s.delivered_at > d.failed_at)
   GROUP BY ch.id, ch.customer_id, ch.name
)
SELECT i.kind, i.urgency, i.customer_id, c.customer_name, i.kind || ':' || coalesce(i.customer_id, '*') || ':' || i.ref AS id,
       i.what, i.detail, to_json(i.since)#>>'{}' AS since, i.link, i.project_request, i.license_order
  FROM items i LEFT JOIN customer c ON c.customer_id = i.customer_id
 ORDER BY i.urgency, i.since DESC, id`;

interface Row {
  kind: InboxKind;
  urgency: number;
  customer_id: string | null;
  customer_name: string | null;
  id: string;
  what: string;
  detail: string | null;
  since: string;
  link: string | null;
  project_request: InboxItem['project_request'] | null;
  license_order: InboxItem['license_order'] | null;
}

/**
 * Runs one of the console's cross-customer statements without JIT: their estimated cost (thousands of index probes
 * over every account) passes jit_above_cost, and compiling the many-branch plan took 11 of a 13 s answer with 500
 * customers, where the statement itself runs in milliseconds.
 */
export function queryWithoutJit<R extends object>(pool: Pool, sql: string, params: unknown[]): Promise<R[]> {
  return withTransaction(pool, async (tx) => {
    await tx.query('SET LOCAL jit = off');
    return (await tx.query<R>(sql, params)).rows;
  });
}

/** Every open item, most urgent first, then newest. */
export async function listInbox(pool: Pool, input: InboxInput): Promise<InboxItem[]> {
  const targets = TICKET_PRIORITIES.map((p) => input.targets[p]);
  const rows = await queryWithoutJit<Row>(pool, INBOX_SQL, [input.today, input.anomaliesSeenAt, targets, input.staleDays, JSON.stringify(input.licenseSyncFailures)]);
  return rows.map(({ project_request, license_order, ...r }) => ({
    ...r,
    ...(project_request ? { project_request } : {}),
    ...(license_order ? { license_order } : {}),
  }));
}

/** Items per kind, every kind present (0 when none). */
export function countByKind(items: readonly InboxItem[]): Record<InboxKind, number> {
  const counts = Object.fromEntries(INBOX_KINDS.map((k) => [k, 0])) as Record<InboxKind, number>;
  for (const i of items) counts[i.kind] += 1;
  return counts;
}

/** When the admin last marked the anomalies seen (null: never). */
export async function findAnomaliesSeenAt(db: Queryable, userId: string): Promise<string | null> {
  const { rows } = await db.query<{ at: string }>(`SELECT to_json(anomalies_seen_at)#>>'{}' AS at FROM operations_seen WHERE user_id = $1`, [userId]);
  return rows[0]?.at ?? null;
}

/** Records that the admin has looked at the anomalies now; later runs' finds are new again. */
export async function markAnomaliesSeen(db: Queryable, userId: string): Promise<string> {
  const { rows } = await db.query<{ at: string }>(
    `INSERT INTO operations_seen (user_id, anomalies_seen_at) VALUES ($1, now())
     ON CONFLICT (user_id) DO UPDATE SET anomalies_seen_at = excluded.anomalies_seen_at
     RETURNING to_json(anomalies_seen_at)#>>'{}' AS at`,
    [userId],
  );
  return rows[0].at;
}
