import type { CustomerRecord } from '../customers/rules.ts';
import type { Queryable } from './pool.ts';

export type MemberList = 'users' | 'notify' | 'alert';

const COLUMNS = [
  'customer_id', 'customer_name', 'entity', 'billing_account_ids', 'billing_currency', 'billing_dashboard_type',
  'billing_dashboard_set_discount', 'billing_dashboard_tier_discount', 'support_request', 'billing_viewer',
  'gcp_service_account', 'service_account_email', 'inventory', 'system_health_dashboard', 'grafana_external_link',
  'documentation', 'drive_id', 'workspace_license', 'domain_name', 'anomaly_detection', 'minimum_anomaly_threshold',
  'minimum_value_toggled_anomaly', 'billing_cost_basis', 'business_units', 'products', 'env', 'owner_values', 'project_provisioning',
] as const;

function values(c: CustomerRecord): unknown[] {
  return COLUMNS.map((k) =>
    k === 'billing_dashboard_tier_discount' || k === 'project_provisioning' ? JSON.stringify(c[k]) : c[k],
  );
}

/** The stored settings of one customer (locked for update inside a transaction when `lock`). */
export async function findCustomerRecord(db: Queryable, customerId: string, lock = false): Promise<CustomerRecord | null> {
  const { rows } = await db.query<CustomerRecord>(
    `SELECT ${COLUMNS.join(', ')} FROM customer WHERE customer_id = $1${lock ? ' FOR UPDATE' : ''}`,
    [customerId],
  );
  const r = rows[0];
  if (!r) return null;
  return {
    ...r,
    billing_dashboard_set_discount: r.billing_dashboard_set_discount === null ? null : Number(r.billing_dashboard_set_discount),
    minimum_anomaly_threshold: Number(r.minimum_anomaly_threshold),
    minimum_value_toggled_anomaly: Number(r.minimum_value_toggled_anomaly),
  };
}

/** Inserts a new customer; false when the id is taken. */
export async function insertCustomer(db: Queryable, c: CustomerRecord): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO customer (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})
     ON CONFLICT (customer_id) DO NOTHING`,
    values(c),
  );
  return (rowCount ?? 0) > 0;
}

export async function updateCustomer(db: Queryable, c: CustomerRecord): Promise<void> {
  const sets = COLUMNS.slice(1).map((k, i) => `${k} = $${i + 2}`);
  await db.query(`UPDATE customer SET ${sets.join(', ')}, updated_at = now() WHERE customer_id = $1`, values(c));
}

/** Billing accounts among `accountIds` that another customer already has: a billing account belongs to one customer. */
export async function billingAccountsOfOthers(db: Queryable, accountIds: string[], customerId: string): Promise<{ account: string; customer_id: string }[]> {
  const { rows } = await db.query<{ account: string; customer_id: string }>(
    `SELECT a AS account, customer_id FROM customer, unnest(billing_account_ids) AS a
      WHERE a = ANY($1::text[]) AND customer_id <> $2 ORDER BY a`,
    [accountIds, customerId],
  );
  return rows;
}

export async function listMembers(db: Queryable, customerId: string, list: MemberList): Promise<string[]> {
  const { rows } = await db.query<{ user_id: string }>(
    'SELECT user_id FROM customer_member WHERE customer_id = $1 AND list = $2 ORDER BY user_id',
    [customerId, list],
  );
  return rows.map((r) => r.user_id);
}

export async function addMembers(db: Queryable, customerId: string, list: MemberList, userIds: string[]): Promise<void> {
  await db.query(
    'INSERT INTO customer_member (customer_id, list, user_id) SELECT $1, $2, unnest($3::text[]) ON CONFLICT DO NOTHING',
    [customerId, list, userIds],
  );
}

export async function removeMembers(db: Queryable, customerId: string, list: MemberList, userIds: string[]): Promise<void> {
  await db.query('DELETE FROM customer_member WHERE customer_id = $1 AND list = $2 AND user_id = ANY($3::text[])', [customerId, list, userIds]);
}

/** Users who lost access to a customer leave all its lists and lose their viewer filters there. */
export async function removeFromCustomer(db: Queryable, customerId: string, userIds: string[]): Promise<void> {
  await db.query('DELETE FROM customer_member WHERE customer_id = $1 AND user_id = ANY($2::text[])', [customerId, userIds]);
  await db.query('DELETE FROM viewer_filter WHERE customer_id = $1 AND user_id = ANY($2::text[])', [customerId, userIds]);
}

/** The ids among `customerIds` that exist. */
export async function existingCustomerIds(db: Queryable, customerIds: string[]): Promise<string[]> {
  const { rows } = await db.query<{ customer_id: string }>('SELECT customer_id FROM customer WHERE customer_id = ANY($1::text[])', [customerIds]);
  return rows.map((r) => r.customer_id);
}

/** GCP projects seen in the customer's billing data: what its service account can reach, as far as the store knows. */
export async function listBilledGcpProjects(db: Queryable, customerId: string): Promise<{ project_id: string; project_name: string }[]> {
  const { rows } = await db.query<{ project_id: string; project_name: string }>(
    `SELECT project_id, max(project_name) AS project_name FROM cost_daily
      WHERE billing_account_id = ANY(SELECT unnest(billing_account_ids) FROM customer WHERE customer_id = $1)
        AND customer_id = $1 AND provider = 'gcp' AND project_id <> ''
      GROUP BY project_id ORDER BY project_id`,
    [customerId],
  );
  return rows;
}
