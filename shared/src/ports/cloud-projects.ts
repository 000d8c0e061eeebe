/**
 * Port: the GCP projects a customer's service account has been granted (Advanced Settings, spec 001 §2.4;
 * GET /v1/customers/{id}/service/access/). `local` answers from the store; a `real` adapter would ask Cloud
 * Resource Manager (projects:search as the service account).
 */
export interface GcpProject {
  project_id: string;
  project_name: string;
}

export interface CloudProjects {
  grantedProjects(customer: { customer_id: string; service_account_email: string }): Promise<GcpProject[]>;
}
