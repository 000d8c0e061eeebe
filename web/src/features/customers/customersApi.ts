import { api } from '../../app/api.ts';

/** A project template a customer offers for provisioning (spec 000 §3). */
export interface ProjectTemplate {
  template_name: string;
  folder_name?: string;
  folder_number?: string;
  project_template?: Record<string, unknown>;
}

/** The customer document as `GET /v1/customers/{id}/` answers it (spec 000 §3, 001 §3). */
export interface Customer {
  customer_id: string;
  customer_name: string;
  entity: string | null;
  /** Comma-separated; the first is the default billing account. */
  billing_account_id: string;
  billing_currency: string;
  billing_viewer: boolean;
  support_request: boolean;
  gcp_service_account: boolean;
  inventory: boolean;
  system_health_dashboard: boolean;
  documentation: boolean;
  workspace_license: boolean;
  anomaly_detection: boolean;
  project_provisioning: ProjectTemplate[];
  [field: string]: unknown;
}

/** The per-customer switches that gate menu items and screens (spec 001 §6). */
export type FeatureFlag =
  | 'support_request'
  | 'billing_viewer'
  | 'inventory'
  | 'system_health_dashboard'
  | 'documentation'
  | 'workspace_license'
  | 'anomaly_detection';

/** Billing accounts of a customer, default first; spaces are not part of ids (spec 001 §2.4). */
export function splitBillingAccounts(value: unknown): string[] {
  if (typeof value !== 'string') return [];
  return value
    .split(',')
    .map((s) => s.replace(/\s+/g, ''))
    .filter(Boolean);
}

export const customersApi = api.injectEndpoints({
  endpoints: (build) => ({
    getCustomer: build.query<Customer, string>({
      query: (id) => `/v1/customers/${encodeURIComponent(id)}/`,
      providesTags: (_result, _error, id) => [{ type: 'Customer', id }],
    }),
  }),
});

export const { useGetCustomerQuery } = customersApi;
