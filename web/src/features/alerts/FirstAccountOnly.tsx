import type { ReactNode } from 'react';
import { MESSAGES } from '@cc/shared/constants.ts';
import { Page, PageLoading, PageMessage } from '../../common/Page.tsx';
import { useBillingAccounts, useCurrentCustomer } from '../../app/selection/useCustomerContext.ts';
import type { CustomerDocument } from '@cc/shared/schemas/customers.ts';

/** Spec 001 §2.8, §2.9: shown on the alerts and viewers screens for any billing account but the first. */
export const NOT_IMPLEMENTED_FOR_ACCOUNT = 'Alerts is not implemented for this billing account';

/**
 * Renders its screen only for the customer's first billing account (spec 001 §9: billing alerts and
 * viewers apply only to the first billing account), with the customer's document at hand.
 */
export function FirstAccountOnly({ title, children }: { title: string; children: (ctx: { customer: CustomerDocument; billingAccountId: string }) => ReactNode }) {
  const { customer } = useCurrentCustomer();
  const { accounts, active } = useBillingAccounts();
  if (!customer) return <PageLoading />;
  if (!active) {
    return (
      <Page title={title}>
        <PageMessage>{MESSAGES.missingBillingAccount}</PageMessage>
      </Page>
    );
  }
  if (active !== accounts[0]) {
    return (
      <Page title={title}>
        <PageMessage>{NOT_IMPLEMENTED_FOR_ACCOUNT}</PageMessage>
      </Page>
    );
  }
  return <>{children({ customer, billingAccountId: active })}</>;
}
