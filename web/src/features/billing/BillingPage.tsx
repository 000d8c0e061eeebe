import { MESSAGES } from '@cc/shared/constants.ts';
import { useAppSelector } from '../../app/hooks.ts';
import type { PageProps } from '../../app/route-types.ts';
import { Page, PageLoading, PageMessage } from '../../common/Page.tsx';
import { useBillingAccounts, useCurrentCustomer, useSelectedCustomer } from '../../app/selection/useCustomerContext.ts';
import { BillingDashboard } from './BillingDashboard.tsx';

/**
 * Home (/): the billing dashboard, or the states spec 000 §2 shows instead of it: no billing
 * account, and a customerViewer without a filter for the selected customer.
 */
export function BillingPage({ route }: PageProps) {
  const claims = useAppSelector((s) => s.session.claims);
  const { selected } = useSelectedCustomer();
  const { customer, isLoading } = useCurrentCustomer();
  const { accounts, active } = useBillingAccounts();

  const viewerWithoutFilter = claims?.role === 'customerViewer' && !claims.filters.some((f) => f.customer === selected?.id);

  let body;
  if (isLoading) body = <PageLoading />;
  else if (!active || !customer) body = <PageMessage>{MESSAGES.missingBillingAccount}</PageMessage>;
  else if (viewerWithoutFilter || !claims) body = <PageMessage>{MESSAGES.contactAdmin}</PageMessage>;
  else body = <BillingDashboard claims={claims} customer={customer} billingAccountId={active} firstAccount={active === accounts[0]} />;

  return <Page title={route.title}>{body}</Page>;
}
