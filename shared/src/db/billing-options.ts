/** The settings drawer's choices of one billing account, read from the daily rollups (a viewer's: their projects only). */
import type { Queryable } from './pool.ts';
import type { SpendFilter } from './billing-query.ts';

export interface BillingOptions {
  providers: string[];
  services: string[];
  project_labels: Record<string, string[]>;
  resource_labels: Record<string, string[]>;
}

/**
 * Choices of the settings drawer for one account: providers present, services (of `provider`, null = all) and
 * label keys with their non-empty values. A viewer's answer is limited to the projects their filters match.
 */
export async function billingOptions(db: Queryable, f: Pick<SpendFilter, 'customerId' | 'billingAccountId' | 'provider' | 'viewer'>): Promise<BillingOptions> {
  const viewer = f.viewer === null ? null : JSON.stringify(f.viewer);
  const allowed = `($3::jsonb IS NULL OR (x.usage_date, x.project_id) IN (
      SELECT usage_date, project_id FROM viewer_allowed_days($1, $2, '-infinity', 'infinity', $3)))`;
  // Three independent reads: run side by side on a pool (a single client queues them anyway).
  const [providers, services, labels] = await Promise.all([
    db.query<{ provider: string }>(
      `SELECT DISTINCT provider FROM cost_daily x WHERE customer_id = $1 AND billing_account_id = $2 AND ${allowed} ORDER BY provider`,
      [f.customerId, f.billingAccountId, viewer],
    ),
    db.query<{ service: string }>(
      `SELECT DISTINCT service FROM cost_daily x
     WHERE customer_id = $1 AND billing_account_id = $2 AND ($4::text IS NULL OR provider = $4) AND service <> '' AND ${allowed}
     ORDER BY service`,
      [f.customerId, f.billingAccountId, viewer, f.provider],
    ),
    db.query<{ label_kind: 'project' | 'resource'; label_key: string; label_values: string[] }>(
      `SELECT label_kind, label_key, coalesce(array_agg(DISTINCT label_value ORDER BY label_value) FILTER (WHERE label_value <> ''), '{}') AS label_values
     FROM cost_daily_label x
     WHERE customer_id = $1 AND billing_account_id = $2 AND ($4::text IS NULL OR provider = $4) AND ${allowed}
     GROUP BY label_kind, label_key ORDER BY label_kind, label_key`,
      [f.customerId, f.billingAccountId, viewer, f.provider],
    ),
  ]);
  const project_labels: Record<string, string[]> = {};
  const resource_labels: Record<string, string[]> = {};
  for (const r of labels.rows) (r.label_kind === 'project' ? project_labels : resource_labels)[r.label_key] = r.label_values;
  return { providers: providers.rows.map((r) => r.provider), services: services.rows.map((r) => r.service), project_labels, resource_labels };
}
