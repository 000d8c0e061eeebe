/**
 * The figures of the built-in System Health dashboard (MONITORING=local): what the product already knows about a
 * customer, read from its own tables. Money is decimal text rounded to 2 places (rounded where shown, STYLE.md).
 * Decisions (what "open" means, which window, why alerts are per customer): docs/decisions-monitoring.md.
 */
import { ANOMALY_DATE_OFFSET_DAYS } from '../insights/anomaly-rule.ts';
import { TICKET_PRIORITIES, type TicketPriority } from '../tickets/rules.ts';
import { addDays } from '../time.ts';
import type { LabelFilter } from '../claims.ts';
import type { Queryable } from './pool.ts';
import { loadSql } from './load-sql.ts';
import { healthConversion, type UnconvertedSpend } from './monitoring-conversion.ts';

const PROJECTS_SQL = loadSql('monitoring-projects').text;

export interface ProjectHealth {
  project_id: string;
  project_name: string;
  currency: string;
  yesterday_spend: string;
  /** Mean daily spend of the 28 days before yesterday, over the days since the project was first seen in them. */
  mean_28d: string;
  /** Days the mean covers (0: no spend in those 28 days). */
  mean_days: number;
  /** From the first of the month to yesterday, as the billing dashboard's month to date. */
  month_to_date: string;
  open_anomalies: number;
}

export interface AlertHealth {
  id: number;
  group_by: 'service' | 'project_label' | 'resource_label';
  label_key: string;
  label_value: string;
  quota: string;
  /** Month-to-date spend on the customer's first billing account, as the alert evaluation computes it. */
  month_to_date: string;
  currency: string;
  exceeded: boolean;
}

export interface TicketHealth {
  priority: TicketPriority;
  /** Status Open or In Progress: the provider still has work (Resolved waits for the customer). */
  open: number;
  /** Open and without a first response yet. */
  awaiting_first_response: number;
  /** Minutes since the oldest open ticket without a response was raised; null when none waits. */
  oldest_awaiting_minutes: number | null;
  /** Mean minutes from creation to first response of the open tickets that have one; null when none has. */
  mean_first_response_minutes: number | null;
}

export interface BillingFreshness {
  billing_account_id: string;
  /** Latest US/Pacific day with spend in the rollups. */
  last_usage_date: string | null;
  /** When the latest successful ingest of the account finished. */
  last_ingest_at: string | null;
  /** Status of the latest ingest batch (running, succeeded, rejected, failed). */
  last_batch_status: string | null;
  /** Where the account's spend is read from when an export is configured (aws-data-exports, azure-cost-exports). */
  source: string | null;
  /** The export delivery loaded last: its billing period and manifest. */
  last_delivery: string | null;
  /** Why the export could not be read at its last attempt (credentials, a rejected file); null when it was. */
  source_error: string | null;
}

export interface JobHealth {
  /** Billing accounts whose latest ingest batch was rejected or failed. */
  failing_ingest_accounts: string[];
  /** Tickets, comments and attachments of the customer the ticket-sync queue could not write through. */
  ticket_sync_failures: number;
  /** Anomaly detection is on but an account has no run for the anomaly date or the day before. */
  anomaly_run_missing: boolean;
  /** The last monitoring initialise or rebuild failed. */
  monitoring_failed: boolean;
  failing: boolean;
}

export interface HealthFigures {
  customer_id: string;
  /** The display currency (the customer's billing_currency) of every amount. */
  currency: string;
  /** Spend of the figures' days that could not be converted (no rate within 7 days): in no figure, per currency. */
  unconverted: UnconvertedSpend[];
  today: string;
  yesterday: string;
  anomaly_date: string;
  projects: ProjectHealth[];
  alerts: AlertHealth[];
  tickets: TicketHealth[];
  freshness: BillingFreshness[];
  jobs: JobHealth;
}

/**
 * Every figure of the customer's dashboard. `today` is the US/Pacific billing day (billingToday()); `now` the instant
 * ticket waits are measured to (parameters, so tests can fix both). `viewer`: a customerViewer's filters on the
 * customer (null: unrestricted): his projects, spend and anomalies are those his filters admit, as on his billing
 * dashboard, and he gets no alerts (they are the customer's budgets over the whole account; he holds no alerts
 * permission).
 */
export async function healthFigures(db: Queryable, customerId: string, today: string, now: Date = new Date(), viewer: LabelFilter[] | null = null): Promise<HealthFigures> {
  const anomalyDate = addDays(today, -ANOMALY_DATE_OFFSET_DAYS);
  const monthStart = `${today.slice(0, 8)}01`;
  const filters = viewer === null ? null : JSON.stringify(viewer);
  const projects = await db.query<ProjectHealth>(PROJECTS_SQL, [customerId, today, anomalyDate, filters]);

  // Same scope and spend as recordQuotaCrossings (shared/src/db/alerts.ts): the first billing account, cost + credits,
  // each row converted into the billing currency at its usage day's rate (a row without a rate is left out).
  const alerts = await db.query<AlertHealth>(
    `WITH rates AS (
       SELECT r.currency, r.day, r.rate FROM customer c
        CROSS JOIN LATERAL fx_day_rates(c.billing_currency, c.billing_account_ids[1], $2::date, $3::date) r
        WHERE c.customer_id = $1 AND cardinality(c.billing_account_ids) > 0 AND r.rate IS NOT NULL
     )
     SELECT a.id::int AS id, a.group_by, a.label_key, a.label_value, round(a.quota, 2)::text AS quota,
            round(t.spend, 2)::text AS month_to_date, c.billing_currency AS currency, t.spend > a.quota AS exceeded
       FROM alert a JOIN customer c ON c.customer_id = a.customer_id
       CROSS JOIN LATERAL (
         SELECT COALESCE(sum(x.amount * coalesce(r.rate, 1)) FILTER (WHERE x.currency = c.billing_currency OR r.rate IS NOT NULL), 0) AS spend
           FROM (
             SELECT d.cost + d.credits AS amount, d.currency, d.usage_date FROM cost_daily d
              WHERE a.group_by = 'service' AND d.customer_id = a.customer_id AND d.billing_account_id = c.billing_account_ids[1]
                AND d.usage_date BETWEEN $2::date AND $3::date
             UNION ALL
             SELECT l.cost + l.credits, l.currency, l.usage_date FROM cost_daily_label l
              WHERE a.group_by <> 'service' AND l.customer_id = a.customer_id AND l.billing_account_id = c.billing_account_ids[1]
                AND l.label_kind = CASE a.group_by WHEN 'project_label' THEN 'project' ELSE 'resource' END
                AND l.label_key = a.label_key AND l.label_value = a.label_value
                AND l.usage_date BETWEEN $2::date AND $3::date
           ) x
           LEFT JOIN rates r ON r.currency = x.currency AND r.day = x.usage_date
       ) t
      WHERE a.customer_id = $1 AND cardinality(c.billing_account_ids) > 0 AND NOT $4::boolean
      ORDER BY a.id`,
    [customerId, monthStart, today, viewer !== null],
  );
  const conversion = await healthConversion(db, customerId, today, filters);

  const tickets = await db.query<TicketHealth>(
    `SELECT p.priority,
            count(t.id)::int AS open,
            count(t.id) FILTER (WHERE t.first_response_at IS NULL)::int AS awaiting_first_response,
            floor(extract(epoch FROM $2::timestamptz - min(t.created_at) FILTER (WHERE t.first_response_at IS NULL)) / 60)::int AS oldest_awaiting_minutes,
            round(avg(extract(epoch FROM t.first_response_at - t.created_at)) / 60)::int AS mean_first_response_minutes
       FROM unnest($3::text[]) AS p(priority)
       LEFT JOIN ticket t ON t.priority = p.priority AND t.customer_id = $1 AND t.status IN ('Open', 'In Progress')
      GROUP BY p.priority
      ORDER BY p.priority`,
    [customerId, now.toISOString(), TICKET_PRIORITIES],
  );

  const freshness = await db.query<BillingFreshness>(
    `SELECT a.billing_account_id,
            (SELECT max(d.usage_date)::text FROM cost_daily d WHERE d.customer_id = $1 AND d.billing_account_id = a.billing_account_id) AS last_usage_date,
            (SELECT to_json(max(b.finished_at))#>>'{}' FROM ingest_batch b
              WHERE b.customer_id = $1 AND b.billing_account_id = a.billing_account_id AND b.status = 'succeeded') AS last_ingest_at,
            (SELECT b.status FROM ingest_batch b WHERE b.customer_id = $1 AND b.billing_account_id = a.billing_account_id
              ORDER BY b.started_at DESC, b.id DESC LIMIT 1) AS last_batch_status,
            s.kind AS source, s.last_delivery, s.last_error AS source_error
       FROM customer c CROSS JOIN LATERAL unnest(c.billing_account_ids) WITH ORDINALITY AS a(billing_account_id, n)
       LEFT JOIN billing_export_source s ON s.billing_account_id = a.billing_account_id AND s.customer_id = c.customer_id
      WHERE c.customer_id = $1
      ORDER BY a.n`,
    [customerId],
  );

  const jobs = await db.query<Omit<JobHealth, 'failing' | 'failing_ingest_accounts'>>(
    `SELECT (SELECT count(*) FROM ticket t WHERE t.customer_id = $1 AND t.sync_state = 'failed')::int
          + (SELECT count(*) FROM ticket_comment m JOIN ticket t ON t.id = m.ticket_id WHERE t.customer_id = $1 AND m.sync_state = 'failed')::int
          + (SELECT count(*) FROM ticket_attachment f JOIN ticket t ON t.id = f.ticket_id
              WHERE t.customer_id = $1 AND f.sync_state = 'failed' AND f.deleted_at IS NULL)::int AS ticket_sync_failures,
            -- the nightly run judges the anomaly date only at 05:30 US/Pacific: before that, the day before's run counts
            COALESCE((SELECT c.anomaly_detection AND EXISTS (
                        SELECT 1 FROM unnest(c.billing_account_ids) AS a(id)
                         WHERE NOT EXISTS (SELECT 1 FROM anomaly_run r WHERE r.customer_id = $1 AND r.billing_account_id = a.id AND r.date >= $2::date - 1))
                        FROM customer c WHERE c.customer_id = $1), false) AS anomaly_run_missing,
            EXISTS (SELECT 1 FROM monitoring_account m WHERE m.customer_id = $1 AND m.status = 'failed') AS monitoring_failed`,
    [customerId, anomalyDate],
  );
  const failingIngest = freshness.rows
    .filter((f) => f.last_batch_status === 'failed' || f.last_batch_status === 'rejected' || f.source_error !== null)
    .map((f) => f.billing_account_id);
  const j = jobs.rows[0];

  return {
    customer_id: customerId,
    currency: conversion.currency,
    unconverted: conversion.unconverted,
    today,
    yesterday: addDays(today, -1),
    anomaly_date: anomalyDate,
    projects: projects.rows,
    alerts: alerts.rows,
    tickets: tickets.rows,
    freshness: freshness.rows,
    jobs: {
      failing_ingest_accounts: failingIngest,
      ticket_sync_failures: j.ticket_sync_failures,
      anomaly_run_missing: j.anomaly_run_missing,
      monitoring_failed: j.monitoring_failed,
      failing: failingIngest.length > 0 || j.ticket_sync_failures > 0 || j.anomaly_run_missing || j.monitoring_failed,
    },
  };
}
