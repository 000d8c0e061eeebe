import { useEffect } from 'react';
import type { CustomerRef } from '@cc/shared/claims.ts';
import { useAppDispatch, useAppSelector } from '../hooks.ts';
import { billingAccountSelected } from './selectionSlice.ts';
import { rememberBillingAccount } from './billing-account-memory.ts';
import { useSelectedCustomer } from './useCustomerContext.ts';
import { LINK_BILLING_ACCOUNT_PARAM, LINK_CUSTOMER_PARAM } from '@cc/shared/links.ts';

const NO_CUSTOMERS: CustomerRef[] = [];

/**
 * A link from a notice e-mail names the customer and billing account it is about (`?customer=&billing_account=`),
 * so it opens on them whatever the reader had selected. A customer the user may not see is ignored (the usual
 * fallback applies, also for one past the claims' first customers once its document is refused); the parameters are then dropped from the address so a reload or a shared URL does not
 * keep overriding the user's own choice.
 */
export function useSelectionFromLink(): void {
  const dispatch = useAppDispatch();
  const customers = useAppSelector((s) => s.session.claims?.customers ?? NO_CUSTOMERS);
  const { select, partial } = useSelectedCustomer();
  useEffect(() => {
    const params = new URLSearchParams(window.location.search);
    const customer = params.get(LINK_CUSTOMER_PARAM);
    if (customer === null || customers.length === 0) return;
    // past the claims' first customers, the selection is checked against the customer's document (useSelectedCustomer)
    if (customers.some((c) => c.id === customer) || partial) {
      select(customer);
      const account = params.get(LINK_BILLING_ACCOUNT_PARAM);
      // Validated by useBillingAccounts against the customer's accounts; an unknown one falls back to the first.
      if (account) {
        rememberBillingAccount(customer, account);
        dispatch(billingAccountSelected({ billingAccountId: account }));
      }
    }
    params.delete(LINK_CUSTOMER_PARAM);
    params.delete(LINK_BILLING_ACCOUNT_PARAM);
    const query = params.toString();
    window.history.replaceState(window.history.state, '', `${window.location.pathname}${query ? `?${query}` : ''}${window.location.hash}`);
  }, [customers, partial, select, dispatch]);
}
