import type { Role } from './permissions.ts';

export interface LabelFilter {
  label_key: string;
  label_value: string;
}

/** A viewer's project-label filter for one customer (spec 001 §3 User). */
export interface CustomerFilter {
  customer: string;
  project_label: LabelFilter[];
}

export interface CustomerRef {
  id: string;
  name: string;
  entity: string | null;
}

/**
 * The signed-in user's claims (spec 000 §3 User, 001 §3), read by the web from the sign-in answer and /v1/auth/me.
 * Not in the access token: it names the user and the session only.
 */
export interface Claims {
  email: string;
  role: Role;
  perms: string[];
  admin: boolean;
  filters: CustomerFilter[];
  /**
   * The first customers (by name, at most CLAIMS_CUSTOMERS) the user may act for; `customer_count` says how many there
   * are in all. Past that the header's picker searches `GET /v1/auth/me/customers`, so the claims stay small whatever
   * the number of customers an admin looks after.
   */
  customers: CustomerRef[];
  customer_count: number;
  picture: string;
}
