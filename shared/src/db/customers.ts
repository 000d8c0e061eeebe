import type { Queryable } from './pool.ts';
import type { CustomerDocument } from '../schemas/customers.ts';
import { BILLING_COLUMNS, withPercentage, type CustomerBilling } from './billing-query.ts';

export type { CustomerDocument };

const SELECT_CUSTOMER = `
  SELECT c.customer_id AS id, c.customer_id, c.customer_name, c.entity,
         array_to_string(c.billing_account_ids, ',') AS billing_account_id,
         c.billing_currency, c.billing_dashboard_type, c.billing_dashboard_set_discount::float8 AS billing_dashboard_set_discount,
         c.billing_dashboard_tier_discount, c.support_request, c.billing_viewer, c.gcp_service_account, c.service_account_email,
         c.inventory, c.system_health_dashboard, c.grafana_external_link, c.documentation, c.drive_id,
         COALESCE((SELECT ma.dashboard_url FROM monitoring_account ma WHERE ma.customer_id = c.customer_id), '') AS grafana_link,
         CASE WHEN c.drive_id = '' THEN '' ELSE 'https://drive.google.com/drive/folders/' || c.drive_id END AS drive_link,
         c.workspace_license, c.domain_name, c.anomaly_detection,
         c.minimum_anomaly_threshold::float8 AS minimum_anomaly_threshold,
         c.minimum_value_toggled_anomaly::float8 AS minimum_value_toggled_anomaly, c.billing_cost_basis,
         c.business_units, c.products, c.env, c.owner_values, c.project_provisioning,
         COALESCE((SELECT array_agg(user_id ORDER BY user_id) FROM customer_member m WHERE m.customer_id = c.customer_id AND m.list = 'users'), '{}') AS users,
         COALESCE((SELECT array_agg(user_id ORDER BY user_id) FROM customer_member m WHERE m.customer_id = c.customer_id AND m.list = 'notify'), '{}') AS notify,
         COALESCE((SELECT array_agg(user_id ORDER BY user_id) FROM customer_member m WHERE m.customer_id = c.customer_id AND m.list = 'alert'), '{}') AS alert,
         COALESCE((SELECT json_agg(json_build_object('user', user_id, 'label_key', label_key, 'label_value', label_value)
                     ORDER BY user_id, label_key, label_value) FROM viewer_filter f WHERE f.customer_id = c.customer_id), '[]') AS filters
    FROM customer c`;

export async function findCustomer(db: Queryable, customerId: string): Promise<CustomerDocument | null> {
  const { rows } = await db.query<CustomerDocument>(`${SELECT_CUSTOMER} WHERE c.customer_id = $1`, [customerId]);
  return rows[0] ?? null;
}

/** Every customer (admin) or those whose users list holds `userId`, ordered by name. */
export async function listCustomers(db: Queryable, scope: { admin: true } | { admin: false; userId: string }): Promise<CustomerDocument[]> {
  const { rows } = scope.admin
    ? await db.query<CustomerDocument>(`${SELECT_CUSTOMER} ORDER BY c.customer_name`)
    : await db.query<CustomerDocument>(
        `${SELECT_CUSTOMER} WHERE EXISTS (SELECT 1 FROM customer_member m WHERE m.customer_id = c.customer_id AND m.list = 'users' AND m.user_id = $1)
         ORDER BY c.customer_name`,
        [scope.userId],
      );
  return rows;
}

/**
 * The customer row the tenant guard admits a request for: every setting the routes behind the guard act on
 * (billing, insight and support flags), read once per request.
 */
export interface TenantCustomer extends CustomerBilling {
  customer_id: string;
  customer_name: string;
  support_request: boolean;
  billing_viewer: boolean;
  anomaly_detection: boolean;
  system_health_dashboard: boolean;
  service_account_email: string;
  /** The inventory flag (the inventory routes refuse when it is off). */
  inventory: boolean;
  workspace_license: boolean;
  domain_name: string;
  documentation: boolean;
  drive_id: string;
}

/**
 * The customer `customerId` if the caller may act for it (an admin: any customer; anyone else: a customer whose
 * users list holds them), else null: a refused and a missing customer look the same.
 */
export async function findTenantCustomer(db: Queryable, customerId: string, caller: { admin: boolean; userId: string }): Promise<TenantCustomer | null> {
  const { rows } = await db.query<TenantCustomer>(
    `SELECT customer_id, customer_name, support_request, billing_viewer, anomaly_detection,
            system_health_dashboard, service_account_email, inventory,
            workspace_license, domain_name, documentation, drive_id, ${BILLING_COLUMNS}
       FROM customer c
      WHERE c.customer_id = $1
        AND ($2 OR EXISTS (SELECT 1 FROM customer_member m WHERE m.customer_id = c.customer_id AND m.list = 'users' AND m.user_id = $3))`,
    [customerId, caller.admin, caller.userId],
  );
  return rows[0] ? withPercentage(rows[0]) : null;
}

/**
 * The id of the customer whose Workspace domain is `domain` (case-insensitive) and that the caller may act for, else
 * null. Should two customers share a domain, a member is matched to theirs and an admin to the first by id.
 */
export async function findTenantCustomerIdByDomain(db: Queryable, domain: string, caller: { admin: boolean; userId: string }): Promise<string | null> {
  const { rows } = await db.query<{ customer_id: string }>(
    `SELECT c.customer_id FROM customer c
      WHERE c.domain_name <> '' AND lower(c.domain_name) = lower($1)
        AND ($2 OR EXISTS (SELECT 1 FROM customer_member m WHERE m.customer_id = c.customer_id AND m.list = 'users' AND m.user_id = $3))
      ORDER BY c.customer_id LIMIT 1`,
    [domain, caller.admin, caller.userId],
  );
  return rows[0]?.customer_id ?? null;
}
