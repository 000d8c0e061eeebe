import type { LabelFilter } from '../claims.ts';
import type { Queryable } from './pool.ts';
import { loadSql } from './load-sql.ts';
import type { CostBasis } from '../schemas/billing.ts';
import { ANOMALY_CONTRIBUTORS_LISTED } from '../insights/anomaly-rule.ts';
import { storeContributors } from './anomalies-explain.ts';

const SERIES_SQL = loadSql('anomaly-series').text;

export interface DetectOptions {
  /** The judged US/Pacific day, YYYY-MM-DD. */
  date: string;
  /** One customer, or every customer with anomaly_detection on. */
  customerId: string | null;
  windowDays: number;
  minHistoryDays: number;
  /** Days before the judged day for which unflagged candidates are kept. */
  candidateRetentionDays: number;
  /** false: flagged anomalies are stored without their contributors (the benchmark's baseline for what they cost). */
  contributors?: boolean;
}

export interface DetectionRun {
  customer_id: string;
  billing_account_id: string;
  judged_series: number;
  cold_start_series: number;
  candidates: number;
  flagged: number;
}

/**
 * Detects the anomalies of one day for every account of the customers in scope and stores them: one run row per
 * account, candidate rows upserted on their natural key (ids and notified_at survive a re-run), rows of an earlier
 * run that no longer qualify removed. Must run inside the caller's transaction (temp tables drop at commit).
 */
export async function detectAnomalies(tx: Queryable, o: DetectOptions): Promise<DetectionRun[]> {
  // The pass groups millions of rollup rows into series: with the default 4 MB it sorts on disk (measured: 10x slower).
  await tx.query(`SET LOCAL work_mem = '256MB'`);
  await tx.query(`CREATE TEMP TABLE anomaly_accounts (customer_id text, billing_account_id text, min_perc numeric, min_value numeric) ON COMMIT DROP`);
  await tx.query(
    `INSERT INTO anomaly_accounts
     SELECT DISTINCT c.customer_id, a.billing_account_id, c.minimum_anomaly_threshold, c.minimum_value_toggled_anomaly
       FROM customer c CROSS JOIN LATERAL unnest(c.billing_account_ids) AS a(billing_account_id)
      WHERE c.anomaly_detection AND ($1::text IS NULL OR c.customer_id = $1)`,
    [o.customerId],
  );
  await tx.query(
    `CREATE TEMP TABLE anomaly_series (customer_id text, billing_account_id text, project_id text, service text, currency text,
       judged boolean, mean_cost numeric(24,12), to_date_cost numeric(24,12), project_mean_cost numeric(24,12),
       project_to_date_cost numeric(24,12), candidate boolean, first_seen date) ON COMMIT DROP`,
  );
  // Temp tables have no statistics until analysed: without them the joins are planned as nested loops.
  await tx.query('ANALYZE anomaly_accounts');
  await tx.query(SERIES_SQL, [o.date, o.windowDays, o.minHistoryDays]);
  await tx.query('ANALYZE anomaly_series');
  await tx.query(
    `INSERT INTO anomaly_run (customer_id, billing_account_id, date, computed_at, window_days, min_history_days, judged_series, cold_start_series,
                              cost_basis)
     SELECT a.customer_id, a.billing_account_id, $1::date, now(), $2, $3,
            count(s.judged) FILTER (WHERE s.judged), count(s.judged) FILTER (WHERE NOT s.judged),
            -- the basis anomaly-series.sql judged on (the customer's setting, read in the same transaction)
            (SELECT c.billing_cost_basis FROM customer c WHERE c.customer_id = a.customer_id)
       FROM anomaly_accounts a
       LEFT JOIN anomaly_series s ON s.customer_id = a.customer_id AND s.billing_account_id = a.billing_account_id
      GROUP BY a.customer_id, a.billing_account_id
     ON CONFLICT (customer_id, billing_account_id, date) DO UPDATE
        SET computed_at = EXCLUDED.computed_at, window_days = EXCLUDED.window_days, min_history_days = EXCLUDED.min_history_days,
            judged_series = EXCLUDED.judged_series, cold_start_series = EXCLUDED.cold_start_series, cost_basis = EXCLUDED.cost_basis`,
    [o.date, o.windowDays, o.minHistoryDays],
  );
  await tx.query(
    `INSERT INTO anomaly (customer_id, billing_account_id, date, project_id, service, currency, mean_cost, to_date_cost,
                          project_mean_cost, project_to_date_cost, flagged, notified_at)
     SELECT s.customer_id, s.billing_account_id, $1::date, s.project_id, s.service, s.currency, s.mean_cost, s.to_date_cost,
            s.project_mean_cost, s.project_to_date_cost,
            anomaly_exceeds(s.mean_cost, s.to_date_cost, s.project_mean_cost, s.project_to_date_cost, a.min_perc, a.min_value),
            -- re-judged after the customer's currency changed: the series' finding in the old currency was e-mailed
            -- already (it is removed below), so the same finding is not e-mailed again
            (SELECT max(o.notified_at) FROM anomaly o
              WHERE o.customer_id = s.customer_id AND o.billing_account_id = s.billing_account_id AND o.date = $1::date
                AND o.project_id = s.project_id AND o.service = s.service AND o.currency <> s.currency)
       FROM anomaly_series s
       JOIN anomaly_accounts a ON a.customer_id = s.customer_id AND a.billing_account_id = s.billing_account_id
      WHERE s.candidate
     ON CONFLICT (customer_id, billing_account_id, date, project_id, service, currency) DO UPDATE
        SET mean_cost = EXCLUDED.mean_cost, to_date_cost = EXCLUDED.to_date_cost, project_mean_cost = EXCLUDED.project_mean_cost,
            project_to_date_cost = EXCLUDED.project_to_date_cost, flagged = EXCLUDED.flagged`,
    [o.date],
  );
  // Rows of an earlier run of the day that no longer qualify. NOT IN over an uncorrelated list is a hashed subplan.
  await tx.query(
    `DELETE FROM anomaly x
      USING anomaly_accounts a
      WHERE x.customer_id = a.customer_id AND x.billing_account_id = a.billing_account_id AND x.date = $1::date
        AND (x.customer_id, x.billing_account_id, x.project_id, x.service, x.currency) NOT IN (
          SELECT s.customer_id, s.billing_account_id, s.project_id, s.service, s.currency FROM anomaly_series s WHERE s.candidate)`,
    [o.date],
  );
  // What drove each flagged anomaly, from the lines under its rollups: stored with the run, so the e-mail sent next and
  // the screen read it rather than scanning the lines again (docs/decisions-insights.md).
  if (o.contributors !== false) await storeContributors(tx, { date: o.date, windowDays: o.windowDays, listed: ANOMALY_CONTRIBUTORS_LISTED });
  // Candidates below the customer's thresholds are kept for a while only (they are most of the rows on a weekday);
  // flagged ones stay with their run.
  await tx.query(
    `DELETE FROM anomaly x
      USING anomaly_accounts a
      WHERE x.customer_id = a.customer_id AND x.billing_account_id = a.billing_account_id
        AND x.date < $1::date - $2::int AND NOT x.flagged`,
    [o.date, o.candidateRetentionDays],
  );
  const { rows } = await tx.query<DetectionRun>(
    `SELECT r.customer_id, r.billing_account_id, r.judged_series, r.cold_start_series,
            count(x.id)::int AS candidates, count(x.id) FILTER (WHERE x.flagged)::int AS flagged
       FROM anomaly_run r
       JOIN anomaly_accounts a ON a.customer_id = r.customer_id AND a.billing_account_id = r.billing_account_id
       LEFT JOIN anomaly x ON x.customer_id = r.customer_id AND x.billing_account_id = r.billing_account_id AND x.date = r.date
      WHERE r.date = $1::date
      GROUP BY r.customer_id, r.billing_account_id, r.judged_series, r.cold_start_series
      ORDER BY r.customer_id, r.billing_account_id`,
    [o.date],
  );
  return rows;
}

/** An anomaly met the customer's thresholds and is not e-mailed yet, with what the notice needs. */
export interface UnnotifiedAnomaly {
  id: string;
  customer_id: string;
  customer_name: string;
  billing_account_id: string;
  date: string;
  project_id: string;
  service: string;
  currency: string;
  mean_cost: string;
  to_date_cost: string;
  /** null when the mean is 0 or below. */
  delta_from_mean_cost_perc: string | null;
  /** The basis the day was judged on (its run's cost_basis), said in the notice as the alert notice says it. */
  cost_basis: CostBasis;
  recipients: string[];
}

export async function listUnnotifiedAnomalies(db: Queryable, date: string, customerId: string | null): Promise<UnnotifiedAnomaly[]> {
  const { rows } = await db.query<UnnotifiedAnomaly>(
    `SELECT x.id, x.customer_id, c.customer_name, x.billing_account_id, x.date::text AS date, x.project_id, x.service, x.currency,
            round(x.mean_cost, 2)::text AS mean_cost, round(x.to_date_cost, 2)::text AS to_date_cost,
            CASE WHEN x.mean_cost > 0 THEN round((x.to_date_cost - x.mean_cost) * 100 / x.mean_cost, 2)::text END AS delta_from_mean_cost_perc,
            COALESCE(r.cost_basis, c.billing_cost_basis) AS cost_basis,
            COALESCE((SELECT array_agg(m.user_id ORDER BY m.user_id) FROM customer_member m
                       WHERE m.customer_id = x.customer_id AND m.list = 'alert'
                         -- the notice covers the whole account: a customerViewer (limited to his projects) is not sent it
                         AND NOT EXISTS (SELECT 1 FROM app_user u WHERE u.id = m.user_id AND u.role = 'customerViewer')),
                     '{}') AS recipients
       FROM anomaly x JOIN customer c ON c.customer_id = x.customer_id
       -- every stored anomaly has its day's run (written in the same transaction); the customer's setting is a fallback only
       LEFT JOIN anomaly_run r ON r.customer_id = x.customer_id AND r.billing_account_id = x.billing_account_id AND r.date = x.date
      WHERE x.date = $1::date AND ($2::text IS NULL OR x.customer_id = $2) AND x.flagged AND x.notified_at IS NULL
      ORDER BY x.customer_id, x.billing_account_id, (x.to_date_cost - x.mean_cost) DESC, x.id`,
    [date, customerId],
  );
  return rows;
}

export async function markAnomaliesNotified(db: Queryable, ids: string[]): Promise<void> {
  await db.query('UPDATE anomaly SET notified_at = now() WHERE id = ANY($1::bigint[]) AND notified_at IS NULL', [ids]);
}

export interface AnomalyRun {
  computed_at: string;
  window_days: number;
  min_history_days: number;
  judged_series: number;
  cold_start_series: number;
  /** What the run judged spend on (docs/decisions-billing.md, "Billed / Amortised"). */
  cost_basis: CostBasis;
}

export async function findAnomalyRun(db: Queryable, customerId: string, billingAccountId: string, date: string): Promise<AnomalyRun | null> {
  const { rows } = await db.query<AnomalyRun>(
    `SELECT to_json(computed_at)#>>'{}' AS computed_at, window_days, min_history_days, judged_series, cold_start_series, cost_basis
       FROM anomaly_run WHERE customer_id = $1 AND billing_account_id = $2 AND date = $3::date`,
    [customerId, billingAccountId, date],
  );
  return rows[0] ?? null;
}

export interface AnomalyRow {
  project_id: string;
  service: string;
  mean_cost: number;
  to_date_cost: number;
  delta_from_mean_cost_perc: number | null;
  currency: string;
}

export interface AnomalyQuery {
  customerId: string;
  billingAccountId: string;
  date: string;
  /** Decimal text ≥ 0 (checked by the caller). */
  minPerc: string;
  minValue: string;
  /** A viewer's project-label filter for this customer: only projects carrying one of these labels; null = no filter. */
  projectLabels: LabelFilter[] | null;
  /** How far back a project's labels are looked up (the detection window). */
  labelDays: number;
}

/** Stored anomalies of one account and day that pass the given thresholds, biggest increase first. */
export async function listAnomalies(db: Queryable, q: AnomalyQuery): Promise<AnomalyRow[]> {
  const filters = q.projectLabels === null ? null : JSON.stringify(q.projectLabels);
  const { rows } = await db.query<AnomalyRow>(
    `SELECT x.project_id, x.service,
            round(x.mean_cost, 2)::float8 AS mean_cost, round(x.to_date_cost, 2)::float8 AS to_date_cost,
            CASE WHEN x.mean_cost > 0 THEN round((x.to_date_cost - x.mean_cost) * 100 / x.mean_cost, 2)::float8 END AS delta_from_mean_cost_perc,
            x.currency
       FROM anomaly x
      WHERE x.customer_id = $1 AND x.billing_account_id = $2 AND x.date = $3::date
        AND anomaly_exceeds(x.mean_cost, x.to_date_cost, x.project_mean_cost, x.project_to_date_cost, $4::numeric, $5::numeric)
        AND ($6::jsonb IS NULL OR x.project_id IN (
              SELECT project_id FROM viewer_allowed_days($1, $2, $3::date - $7::int, $3::date, $6::jsonb)))
      ORDER BY (x.to_date_cost - x.mean_cost) DESC, x.project_id, x.service`,
    [q.customerId, q.billingAccountId, q.date, q.minPerc, q.minValue, filters, q.labelDays],
  );
  return rows;
}
