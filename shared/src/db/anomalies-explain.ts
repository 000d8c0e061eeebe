/**
 * Why an anomaly is one: its contributors (stored by the detection pass from the cost lines under its rollups) and
 * what happened around it in the portal (read when asked). Decisions: docs/decisions-insights.md, "Anomalies that
 * explain themselves".
 */
import type { Queryable } from './pool.ts';
import { loadSql } from './load-sql.ts';
import { explain, type AroundEvent, type ContributorRow, type Explanation, type StoredExplanation } from '../insights/anomaly-explain.ts';

const TARGETS_SQL = loadSql('anomaly-targets').text;
const LINES_SQL = loadSql('anomaly-contributor-lines').text;
const CONTRIBUTORS_SQL = loadSql('anomaly-contributors').text;

/**
 * Rewrites the contributors of the day's flagged anomalies of the accounts in anomaly_accounts. Must run inside the
 * detection's transaction, after its anomalies are stored (it reads its temp tables).
 */
export async function storeContributors(tx: Queryable, o: { date: string; windowDays: number; listed: number }): Promise<void> {
  await tx.query(
    `DELETE FROM anomaly_contributor c
      USING anomaly x, anomaly_accounts a
      WHERE c.anomaly_id = x.id AND x.customer_id = a.customer_id AND x.billing_account_id = a.billing_account_id AND x.date = $1::date`,
    [o.date],
  );
  await tx.query(
    `CREATE TEMP TABLE anomaly_targets (anomaly_id bigint, customer_id text, billing_account_id text, project_id text, service text,
       display text, to_date_cost numeric(24,12), mean_cost numeric(24,12), first_seen date, mean_days int, basis text) ON COMMIT DROP`,
  );
  await tx.query(TARGETS_SQL, [o.date]);
  await tx.query('ANALYZE anomaly_targets');
  // The rates function's generic row estimates put the plan far above jit_optimize_above_cost: compiling it took 8 s
  // (5,000-series benchmark) for a query that runs in under half a second; the read of the lines gains nothing from
  // it either (measured at 100,000 series: 1,275 ms with, 1,226 ms without). The setting ends with the transaction.
  await tx.query('SET LOCAL jit = off');
  // Worked out once per account and display currency (joined per line, the function was run again for every line).
  await tx.query(
    `CREATE TEMP TABLE anomaly_rates ON COMMIT DROP AS
     SELECT t.billing_account_id, t.display, r.currency, r.day, r.rate
       FROM (SELECT DISTINCT billing_account_id, display FROM anomaly_targets) t
       CROSS JOIN LATERAL fx_day_rates(t.display, t.billing_account_id, $1::date - $2::int, $1::date) r
      WHERE r.rate IS NOT NULL`,
    [o.date, o.windowDays],
  );
  await tx.query('ANALYZE anomaly_rates');
  // The targets as arrays: the lines are read by parallel workers, which cannot read a temp table. Passed as values,
  // the arrays are constants to the planner, so each line's account and project are looked up in a hash of them.
  const { rows: [t] } = await tx.query<Record<string, unknown[] | null>>(
    `SELECT array_agg(anomaly_id) AS anomaly_id, array_agg(customer_id) AS customer_id, array_agg(billing_account_id) AS billing_account_id,
            array_agg(project_id) AS project_id, array_agg(service) AS service, array_agg(display) AS display,
            array_agg(first_seen::text) AS first_seen, array_agg(basis) AS basis,
            array_agg(DISTINCT billing_account_id) AS accounts, array_agg(DISTINCT project_id) AS projects
       FROM anomaly_targets`,
  );
  const arrays = ['anomaly_id', 'customer_id', 'billing_account_id', 'project_id', 'service', 'display', 'first_seen', 'basis', 'accounts', 'projects'];
  // A function scan has no statistics, so the planner prices each probe of the hashed targets as reading a tenth of
  // them and sorts the kept lines for a merge join instead (measured at 100,000 series: 2.2 s against 1.2 s).
  const { rows: [was] } = await tx.query<{ setting: string }>(`SELECT current_setting('enable_mergejoin') AS setting`);
  await tx.query(`SET LOCAL enable_mergejoin = off`);
  // CREATE TABLE AS gets a parallel plan where INSERT … SELECT does not: the lines are read by two workers and this
  // process (docs/decisions-insights.md, "Anomalies that explain themselves").
  await tx.query(`CREATE TEMP TABLE anomaly_lines ON COMMIT DROP AS ${LINES_SQL}`, [o.date, o.windowDays, ...arrays.map((k) => t[k] ?? [])]);
  await tx.query(`SELECT set_config('enable_mergejoin', $1, true)`, [was.setting]);
  await tx.query(CONTRIBUTORS_SQL, [o.listed]);
}

/**
 * One anomaly of an account and day with its contributors, converted as the screen shows the anomaly (into the
 * customer's display currency at the rate of its date; not shown without one). Rounding: each listed figure is
 * rounded to 2 decimals once, and the rest is the shown rise minus the shown listed contributions, so what the reader
 * adds up is exact. null: no such anomaly (or none convertible).
 */
export async function findExplanation(
  db: Queryable,
  q: { customerId: string; billingAccountId: string; date: string; projectId: string; service: string },
): Promise<StoredExplanation | null> {
  const { rows } = await db.query<Omit<StoredExplanation, 'contributors'> & { rate: string }>(
    `SELECT a.id AS anomaly_id, c.billing_currency AS currency, k.rate::text AS rate,
            round(a.mean_cost * k.rate, 2)::float8 AS mean_cost, round(a.to_date_cost * k.rate, 2)::float8 AS to_date_cost,
            (round(a.to_date_cost * k.rate, 2) - round(a.mean_cost * k.rate, 2))::float8 AS rise,
            CASE WHEN a.mean_cost > 0 THEN round((a.to_date_cost - a.mean_cost) * 100 / a.mean_cost, 2)::float8 END AS delta_from_mean_cost_perc,
            EXISTS (SELECT 1 FROM anomaly_contributor x WHERE x.anomaly_id = a.id) AS explained,
            c.minimum_anomaly_threshold::float8 AS min_perc, c.minimum_value_toggled_anomaly::float8 AS min_value
       FROM anomaly a JOIN customer c ON c.customer_id = a.customer_id
       LEFT JOIN LATERAL fx_rate_on(a.currency, c.billing_currency, a.date) r ON a.currency <> c.billing_currency
       CROSS JOIN LATERAL (SELECT CASE WHEN a.currency = c.billing_currency THEN 1::numeric ELSE r.rate END AS rate) k
      WHERE a.customer_id = $1 AND a.billing_account_id = $2 AND a.date = $3::date AND a.project_id = $4 AND a.service = $5
        AND k.rate IS NOT NULL
      -- judged in the display currency first; after a currency change the most recent judgement
      ORDER BY (a.currency = c.billing_currency) DESC, a.id DESC
      LIMIT 1`,
    [q.customerId, q.billingAccountId, q.date, q.projectId, q.service],
  );
  const head = rows[0];
  if (!head) return null;
  const { rows: contributors } = await db.query<ContributorRow>(
    `WITH shown AS (
       SELECT c.*, round(c.day_amount * $2::numeric, 2) AS day_shown, round(c.mean_amount * $2::numeric, 2) AS mean_shown
         FROM anomaly_contributor c WHERE c.anomaly_id = $1
     ), listed AS (
       SELECT dimension, sum(day_shown) AS day_sum, sum(mean_shown) AS mean_sum FROM shown WHERE rank > 0 GROUP BY dimension
     )
     SELECT s.dimension, s.rank, s.label_key, s.value,
            CASE WHEN s.rank > 0 THEN s.day_shown ELSE $3::numeric - coalesce(l.day_sum, 0) END::float8 AS day_amount,
            CASE WHEN s.rank > 0 THEN s.mean_shown ELSE $4::numeric - coalesce(l.mean_sum, 0) END::float8 AS mean_amount,
            CASE WHEN s.rank > 0 THEN s.day_shown - s.mean_shown
                 ELSE ($3::numeric - coalesce(l.day_sum, 0)) - ($4::numeric - coalesce(l.mean_sum, 0)) END::float8 AS contribution,
            round(s.day_cost * $2::numeric, 6)::float8 AS day_cost, round(s.mean_cost * $2::numeric, 6)::float8 AS mean_cost,
            round(s.day_credits * $2::numeric, 6)::float8 AS day_credits, round(s.mean_credits * $2::numeric, 6)::float8 AS mean_credits,
            round(s.day_amortisation * $2::numeric, 6)::float8 AS day_amortisation,
            round(s.mean_amortisation * $2::numeric, 6)::float8 AS mean_amortisation,
            s.day_quantity::float8 AS day_quantity, s.mean_quantity::float8 AS mean_quantity, s.in_baseline
       FROM shown s LEFT JOIN listed l ON l.dimension = s.dimension
      ORDER BY array_position(ARRAY['sku', 'resource', 'label'], s.dimension), s.rank = 0, s.rank`,
    [head.anomaly_id, head.rate, head.to_date_cost, head.mean_cost],
  );
  const { rate: _rate, ...rest } = head;
  return { ...rest, contributors };
}

/**
 * What happened from the day before to the day after the anomaly's day (US/Pacific days), for the same customer:
 * the project created by provisioning or its budget set, tickets naming the project raised or resolved, license
 * orders placed or decided, the billing files (not the nightly syncs) that loaded or corrected that day, and changes
 * of the customer's currency or of a viewer's filters (customer_setting_change, written by triggers).
 */
export async function listAroundEvents(
  db: Queryable,
  q: { customerId: string; billingAccountId: string; date: string; projectId: string },
): Promise<AroundEvent[]> {
  const { rows } = await db.query<AroundEvent>(
    `WITH span AS (
       SELECT ($3::date - 1)::timestamp AT TIME ZONE 'America/Los_Angeles' AS t0,
              ($3::date + 2)::timestamp AT TIME ZONE 'America/Los_Angeles' AS t1
     ), events AS (
       SELECT 'project_created' AS kind, coalesce(p.completed_at, p.created_at) AS at,
              format('project %s was created from template ''%s''', p.project_name, p.template_name) AS text,
              '/projectprovisioning' AS link, false AS customer_wide
         FROM project_request p, span
        WHERE p.customer_id = $1 AND p.project_name = $4 AND p.state <> 'Rejected'
          AND coalesce(p.completed_at, p.created_at) >= span.t0 AND coalesce(p.completed_at, p.created_at) < span.t1
       UNION ALL
       SELECT 'budget_set', (e.v ->> 'at')::timestamptz,
              -- the step's detail is '<budget name>: <amount>'; the amount is what the reader needs
              format('the budget of project %s was set by provisioning (%s)', p.project_name, regexp_replace(e.v ->> 'detail', '^[^:]*: ', '')),
              '/projectprovisioning', false
         FROM project_request p CROSS JOIN LATERAL jsonb_array_elements(p.step_log) AS e(v), span
        WHERE p.customer_id = $1 AND p.project_name = $4 AND e.v ->> 'step' = 'budget' AND e.v ->> 'outcome' = 'done'
          AND (e.v ->> 'at')::timestamptz >= span.t0 AND (e.v ->> 'at')::timestamptz < span.t1
       UNION ALL
       SELECT 'currency_changed', s.at, format('the customer''s currency was changed from %s to %s', s.from_value, s.to_value),
              '/customermanagement/view', true
         FROM customer_setting_change s, span
        WHERE s.customer_id = $1 AND s.kind = 'currency' AND s.at >= span.t0 AND s.at < span.t1
       UNION ALL
       -- one event per viewer and save, with what the save changed (a save that drops the filters and adds the same
       -- ones again changed nothing and is not listed)
       SELECT 'viewer_filters_changed', max(n.at),
              format('the project-label filters of viewer %s were changed (%s)', n.user_id,
                     string_agg(CASE WHEN n.net > 0 THEN 'added ' ELSE 'removed ' END || n.v, ', ' ORDER BY n.net DESC, n.v)),
              '/billing/viewers', true
         FROM (SELECT s.user_id, s.xact, coalesce(s.to_value, s.from_value) AS v, max(s.at) AS at,
                      sum(CASE WHEN s.kind = 'viewer_filter_added' THEN 1 ELSE -1 END) AS net
                 FROM customer_setting_change s, span
                WHERE s.customer_id = $1 AND s.kind IN ('viewer_filter_added', 'viewer_filter_removed') AND s.at >= span.t0 AND s.at < span.t1
                GROUP BY s.user_id, s.xact, coalesce(s.to_value, s.from_value)) n
        WHERE n.net <> 0
        GROUP BY n.user_id, n.xact
       UNION ALL
       SELECT 'ticket_raised', t.created_at, format('ticket %s ''%s'' was raised', coalesce(t.jira_key, 'new'), t.summary),
              '/supportrequest/view/' || coalesce(t.jira_key, t.id::text), false
         FROM ticket t, span
        WHERE t.customer_id = $1 AND t.created_at >= span.t0 AND t.created_at < span.t1
          AND (strpos(t.summary, $4) > 0 OR strpos(t.description, $4) > 0)
       UNION ALL
       SELECT 'ticket_resolved', t.status_changed_at, format('ticket %s ''%s'' was %s', coalesce(t.jira_key, 'new'), t.summary, lower(t.status)),
              '/supportrequest/view/' || coalesce(t.jira_key, t.id::text), false
         FROM ticket t, span
        WHERE t.customer_id = $1 AND t.status IN ('Resolved', 'Closed') AND t.status_changed_at >= span.t0 AND t.status_changed_at < span.t1
          AND (strpos(t.summary, $4) > 0 OR strpos(t.description, $4) > 0)
       UNION ALL
       SELECT 'license_order_placed', o.order_time, format('a license order for %s %s was placed', o.order_amount, coalesce(o.sku_name, o.sku_id)),
              '/workspacelicense', true
         FROM license_order o, span
        WHERE o.customer_id = $1 AND o.order_time >= span.t0 AND o.order_time < span.t1
       UNION ALL
       SELECT 'license_order_decided', o.decided_at, format('the license order for %s %s was %s', o.order_amount, coalesce(o.sku_name, o.sku_id), lower(o.status)),
              '/workspacelicense', true
         FROM license_order o, span
        WHERE o.customer_id = $1 AND o.decided_at >= span.t0 AND o.decided_at < span.t1
       UNION ALL
       SELECT CASE WHEN b.mode = 'append' THEN 'billing_correction' ELSE 'billing_file' END, b.finished_at,
              format(CASE WHEN b.mode = 'append' THEN 'correction file %s was added to that day' ELSE 'billing file %s replaced that day' END, b.file_name),
              '/', true
         FROM ingest_batch b
        WHERE b.customer_id = $1 AND b.billing_account_id = $2 AND b.status = 'succeeded' AND b.file_name IS NOT NULL
          AND EXISTS (SELECT 1 FROM cost_line_extent e WHERE e.source_batch = b.id AND $3::date BETWEEN e.first_day AND e.last_day)
     )
     SELECT kind, to_json(at)#>>'{}' AS at, text, link, customer_wide FROM events ORDER BY at, kind LIMIT 20`,
    [q.customerId, q.billingAccountId, q.date, q.projectId],
  );
  return rows;
}

/** Whether a viewer's project-label filters admit the project on some day of the window (as the anomaly list does). */
export async function viewerAdmitsProject(
  db: Queryable,
  q: { customerId: string; billingAccountId: string; date: string; windowDays: number; projectId: string; filters: unknown[] },
): Promise<boolean> {
  const { rowCount } = await db.query(
    `SELECT 1 FROM viewer_allowed_days($1, $2, $3::date - $4::int, $3::date, $5::jsonb) WHERE project_id = $6 LIMIT 1`,
    [q.customerId, q.billingAccountId, q.date, q.windowDays, JSON.stringify(q.filters), q.projectId],
  );
  return (rowCount ?? 0) > 0;
}

export type FullExplanation = Omit<StoredExplanation, 'anomaly_id' | 'min_perc' | 'min_value' | 'contributors'> &
  Explanation & { contributors: (Omit<ContributorRow, 'day_cost' | 'mean_cost' | 'day_credits' | 'mean_credits' | 'day_amortisation' | 'mean_amortisation'> & { share: number })[]; events: Omit<AroundEvent, 'customer_wide'>[] };

/**
 * An anomaly's explanation as the screen and the e-mail give it: figures, contributors with their share, the kind,
 * the sentence and the events. `projectOnly`: events about the whole customer (license orders, billing files) left
 * out, for a viewer limited to some projects. null: no such anomaly.
 */
export async function explainAnomaly(
  db: Queryable,
  q: { customerId: string; billingAccountId: string; date: string; projectId: string; service: string; windowDays: number; projectOnly: boolean },
): Promise<FullExplanation | null> {
  const stored = await findExplanation(db, q);
  if (!stored) return null;
  const events = (await listAroundEvents(db, q)).filter((e) => !q.projectOnly || !e.customer_wide);
  const words = explain(stored, { date: q.date, windowDays: q.windowDays, events });
  const { anomaly_id: _id, min_perc: _p, min_value: _v, contributors, ...figures } = stored;
  return {
    ...figures,
    ...words,
    contributors: contributors.map(({ day_cost: _a, mean_cost: _b, day_credits: _c, mean_credits: _d, day_amortisation: _e, mean_amortisation: _f, ...c }) => ({
      ...c,
      share: stored.rise > 0 ? Math.round((c.contribution * 1000) / stored.rise) / 10 : 0,
    })),
    events: events.map(({ customer_wide: _w, ...e }) => e),
  };
}
