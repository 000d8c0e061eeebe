import type { Queryable } from './pool.ts';
import type { CostBasis } from '../schemas/billing.ts';

export type AlertGroupBy = 'service' | 'project_label' | 'resource_label';

export interface AlertRow {
  id: number;
  group_by: AlertGroupBy;
  label_key: string;
  label_value: string;
  quota: number;
}

const ALERT_COLUMNS = 'id::int AS id, group_by, label_key, label_value, quota::float8 AS quota';

export async function listAlerts(db: Queryable, customerId: string): Promise<AlertRow[]> {
  const { rows } = await db.query<AlertRow>(`SELECT ${ALERT_COLUMNS} FROM alert WHERE customer_id = $1 ORDER BY id`, [customerId]);
  return rows;
}

export interface NewAlert {
  customerId: string;
  group_by: AlertGroupBy;
  label_key: string;
  label_value: string;
  /** Decimal text ≥ 0. */
  quota: string;
  createdBy: string;
}

export async function createAlert(db: Queryable, a: NewAlert): Promise<AlertRow> {
  const { rows } = await db.query<AlertRow>(
    `INSERT INTO alert (customer_id, group_by, label_key, label_value, quota, created_by) VALUES ($1, $2, $3, $4, $5::numeric, $6)
     RETURNING ${ALERT_COLUMNS}`,
    [a.customerId, a.group_by, a.label_key, a.label_value, a.quota, a.createdBy],
  );
  return rows[0];
}

/** How many of `ids` are alerts of the customer (the caller refuses the whole request when not all are). */
export async function countAlertsOfCustomer(db: Queryable, customerId: string, ids: number[]): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM alert WHERE customer_id = $1 AND id = ANY($2::bigint[])',
    [customerId, ids],
  );
  return rows[0].n;
}

export async function deleteAlerts(db: Queryable, customerId: string, ids: number[]): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM alert WHERE customer_id = $1 AND id = ANY($2::bigint[])', [customerId, ids]);
  return rowCount ?? 0;
}

export interface AlertNoticeRow {
  id: number;
  alert_id: number;
  month: string;
  group_by: AlertGroupBy;
  label_key: string;
  label_value: string;
  quota: number;
  spend: number;
  currency: string;
  evaluated_day: string;
  cost_basis: CostBasis;
  recipients: string[];
  created_at: string;
}

/** The customer's notices, newest first (a page of at most `limit`). */
export async function listAlertNotices(db: Queryable, customerId: string, limit: number): Promise<AlertNoticeRow[]> {
  const { rows } = await db.query<AlertNoticeRow>(
    `SELECT n.id::int AS id, n.alert_id::int AS alert_id, n.month, a.group_by, a.label_key, a.label_value,
            round(n.quota, 2)::float8 AS quota, round(n.spend, 2)::float8 AS spend, n.currency, n.evaluated_day::text AS evaluated_day,
            n.cost_basis, n.recipients, to_json(n.created_at)#>>'{}' AS created_at
       FROM alert_notice n JOIN alert a ON a.id = n.alert_id
      WHERE n.customer_id = $1
      ORDER BY n.created_at DESC, n.id DESC
      LIMIT $2`,
    [customerId, limit],
  );
  return rows;
}

export interface EvaluateScope {
  customerId: string | null;
  billingAccountId: string | null;
  /** First and last US/Pacific day of the month-to-date period. */
  from: string;
  to: string;
}

/**
 * Month-to-date spend of every alert in scope on its customer's first billing account; records a notice for each
 * alert whose quota is exceeded and has none for the month yet (the unique key keeps it to one per month). Returns how
 * many alerts were evaluated and how many notices are new.
 */
export async function recordQuotaCrossings(db: Queryable, s: EvaluateScope): Promise<{ evaluated: number; crossed: number }> {
  const { rows } = await db.query<{ evaluated: number; crossed: number }>(
    `WITH scope AS (
       SELECT a.id, a.customer_id, c.billing_account_ids[1] AS billing_account_id, a.group_by, a.label_key, a.label_value,
              a.quota, c.billing_currency,
              -- the basis the customer's alerts judge (docs/decisions-billing.md, "Billed / Amortised")
              c.billing_cost_basis AS basis
         FROM alert a JOIN customer c ON c.customer_id = a.customer_id
        WHERE cardinality(c.billing_account_ids) > 0
          AND ($1::text IS NULL OR a.customer_id = $1)
          AND ($2::text IS NULL OR c.billing_account_ids[1] = $2)
     ), rates AS (
       -- each (account, foreign currency, day) of the period with its rate into the customer's billing currency
       SELECT a.billing_account_id, r.currency, r.day, r.rate FROM (SELECT DISTINCT billing_account_id, billing_currency FROM scope) a
       CROSS JOIN LATERAL fx_day_rates(a.billing_currency, a.billing_account_id, $3::date, $4::date) r
       WHERE r.rate IS NOT NULL
     ), spend AS (
       -- month-to-date spend in the billing currency: every row converted at its usage day's rate; a row without a
       -- rate within 7 days is not added (as on the dashboard)
       SELECT s.*, t.spend, s.billing_currency AS currency
         FROM scope s
         CROSS JOIN LATERAL (
           SELECT COALESCE(sum(x.amount * coalesce(r.rate, 1)) FILTER (WHERE x.currency = s.billing_currency OR r.rate IS NOT NULL), 0) AS spend
             FROM (
               SELECT basis_spend(s.basis, d.cost, d.credits, d.amortisation) AS amount, d.currency, d.usage_date
                 FROM cost_daily d
                WHERE s.group_by = 'service' AND d.customer_id = s.customer_id AND d.billing_account_id = s.billing_account_id
                  AND d.usage_date BETWEEN $3::date AND $4::date
               UNION ALL
               SELECT basis_spend(s.basis, l.cost, l.credits, l.amortisation), l.currency, l.usage_date
                 FROM cost_daily_label l
                WHERE s.group_by <> 'service' AND l.customer_id = s.customer_id AND l.billing_account_id = s.billing_account_id
                  AND l.label_kind = CASE s.group_by WHEN 'project_label' THEN 'project' ELSE 'resource' END
                  AND l.label_key = s.label_key AND l.label_value = s.label_value
                  AND l.usage_date BETWEEN $3::date AND $4::date
             ) x
             LEFT JOIN rates r ON r.billing_account_id = s.billing_account_id AND r.currency = x.currency AND r.day = x.usage_date
         ) t
     ), inserted AS (
       INSERT INTO alert_notice (alert_id, customer_id, month, billing_account_id, spend, quota, currency, evaluated_day, cost_basis)
       SELECT id, customer_id, to_char($4::date, 'YYYY-MM'), billing_account_id, spend, quota, currency, $4::date, basis
         FROM spend WHERE spend > quota
       ON CONFLICT (alert_id, month) DO NOTHING
       RETURNING id
     )
     SELECT (SELECT count(DISTINCT id) FROM scope)::int AS evaluated, (SELECT count(*) FROM inserted)::int AS crossed`,
    [s.customerId, s.billingAccountId, s.from, s.to],
  );
  return rows[0];
}

export interface PendingNotice {
  id: number;
  alert_id: number;
  customer_id: string;
  customer_name: string;
  month: string;
  billing_account_id: string;
  group_by: AlertGroupBy;
  label_key: string;
  label_value: string;
  /** Decimal text, 2 decimals. */
  spend: string;
  quota: string;
  currency: string;
  evaluated_day: string;
  /** The basis the spend was judged on (the customer's billing_cost_basis when it was evaluated). */
  cost_basis: CostBasis;
  recipients: string[];
}

/** Notices recorded but not handed to notify yet (a crash between the two leaves them here for the retry). */
export async function listPendingNotices(db: Queryable, customerId: string | null): Promise<PendingNotice[]> {
  const { rows } = await db.query<PendingNotice>(
    `SELECT n.id::int AS id, n.alert_id::int AS alert_id, n.customer_id, c.customer_name, n.month, n.billing_account_id,
            a.group_by, a.label_key, a.label_value, round(n.spend, 2)::text AS spend, round(n.quota, 2)::text AS quota, n.currency,
            n.evaluated_day::text AS evaluated_day, n.cost_basis,
            COALESCE((SELECT array_agg(m.user_id ORDER BY m.user_id) FROM customer_member m
                       WHERE m.customer_id = n.customer_id AND m.list = 'alert'
                         -- the notice covers the whole account: a customerViewer (limited to his projects) is not sent it
                         AND NOT EXISTS (SELECT 1 FROM app_user u WHERE u.id = m.user_id AND u.role = 'customerViewer')),
                     '{}') AS recipients
       FROM alert_notice n JOIN alert a ON a.id = n.alert_id JOIN customer c ON c.customer_id = n.customer_id
      WHERE n.notified_at IS NULL AND ($1::text IS NULL OR n.customer_id = $1)
      ORDER BY n.id`,
    [customerId],
  );
  return rows;
}

export async function markNoticeSent(db: Queryable, id: number, recipients: string[]): Promise<void> {
  await db.query('UPDATE alert_notice SET notified_at = now(), recipients = $2 WHERE id = $1 AND notified_at IS NULL', [id, recipients]);
}
