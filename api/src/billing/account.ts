/**
 * Everything a billing request needs before it can read spend: the admitted customer's billing settings, the billing
 * account (must be one of the customer's: another customer's account answers 404) and, for a customerViewer, their
 * viewer filters, kept in process for the request's access epoch like the user and the tenant admission (a change
 * to `viewer_filter` moves the epoch: migration 060), so a cached chart reads no table.
 */
import type { FastifyInstance } from 'fastify';
import type { TenantCustomer } from '@cc/shared/db/customers.ts';
import type { CustomerBilling, LabelFilter } from '@cc/shared/db/billing-query.ts';
import type { AuthUser } from '../plugins/app/auth.ts';
import { errors } from '../errors.ts';
import { viewerAccount, viewerRestriction } from '../viewer-restriction.ts';

// One definition of the viewer's restriction for billing, System Health and the rest (viewer-restriction.ts).
export { isViewer, VIEWER_WITHOUT_FILTER } from '../viewer-restriction.ts';

export const MISSING_BILLING_ACCOUNT = 'Missing Billing Account. Please contact your system administrator.';

export interface AccountContext {
  customerId: string;
  billingAccountId: string;
  customer: CustomerBilling;
  /** null: unrestricted; a list: the customerViewer's filters on this customer (never empty). */
  viewer: LabelFilter[] | null;
}

/** The billing settings alone: they are part of every cached answer's key, so nothing else may slip in. */
const billingOf = (c: TenantCustomer): CustomerBilling => ({
  billing_account_ids: c.billing_account_ids,
  billing_currency: c.billing_currency,
  billing_dashboard_type: c.billing_dashboard_type,
  billing_dashboard_set_discount: c.billing_dashboard_set_discount,
  tiers: c.tiers,
});

/** Customer + billing account (the customer's first when none is asked) + viewer restriction. */
export async function accountContext(app: FastifyInstance, customer: TenantCustomer, user: AuthUser | null, billingAccountId: string | undefined): Promise<AccountContext> {
  if (customer.billing_account_ids.length === 0) throw new errors.notFound(MISSING_BILLING_ACCOUNT);
  const account = billingAccountId || customer.billing_account_ids[0];
  if (!customer.billing_account_ids.includes(account)) throw new errors.notFound('Billing account not found');
  const viewer = await viewerRestriction(app, customer.customer_id, user);
  viewerAccount(viewer, customer.billing_account_ids, account);
  return { customerId: customer.customer_id, billingAccountId: account, customer: billingOf(customer), viewer };
}
