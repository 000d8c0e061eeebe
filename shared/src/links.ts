/**
 * Links into the web app from outside it (notice e-mails): the query parameters that select the customer and
 * billing account the link is about. Shared by the mail templates that write them and the web app that reads them.
 */
export const LINK_CUSTOMER_PARAM = 'customer';
export const LINK_BILLING_ACCOUNT_PARAM = 'billing_account';

/** `{publicUrl}{path}?customer=…&billing_account=…`, without doubling slashes. */
export function screenLink(publicUrl: string, path: string, about?: { customerId: string; billingAccountId?: string }): string {
  const url = `${publicUrl.replace(/\/+$/, '')}${path}`;
  if (!about) return url;
  const params = new URLSearchParams({ [LINK_CUSTOMER_PARAM]: about.customerId });
  if (about.billingAccountId) params.set(LINK_BILLING_ACCOUNT_PARAM, about.billingAccountId);
  return `${url}?${params.toString()}`;
}
