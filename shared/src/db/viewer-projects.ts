/**
 * The projects a customerViewer's filters admit on a customer, for screens that list projects rather than spend
 * (the System Health credentials panel): those that carried one of his project labels on any day of the customer's
 * first billing account, his only one (viewer_allowed_days, the rule every billing read applies per day). A project
 * without spend has no labels in the rollups and is not admitted. docs/decisions.md, "A viewer's filter".
 */
import type { LabelFilter } from '../claims.ts';
import type { Queryable } from './pool.ts';

export async function viewerProjectIds(db: Queryable, customerId: string, filters: LabelFilter[]): Promise<Set<string>> {
  const { rows } = await db.query<{ project_id: string }>(
    `SELECT DISTINCT v.project_id
       FROM customer c CROSS JOIN LATERAL viewer_allowed_days(c.customer_id, c.billing_account_ids[1], '-infinity', 'infinity', $2::jsonb) v
      WHERE c.customer_id = $1`,
    [customerId, JSON.stringify(filters)],
  );
  return new Set(rows.map((r) => r.project_id));
}
