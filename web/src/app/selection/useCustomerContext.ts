import { useCallback } from 'react';
import type { CustomerRef } from '@cc/shared/claims.ts';
import { useAppDispatch, useAppSelector } from '../hooks.ts';
import { SELECTED_CUSTOMER_COOKIE, readCookie, writeCookie } from '../../common/cookies.ts';
import { billingAccountSelected, customerSelected } from './selectionSlice.ts';
import { splitBillingAccounts, useGetCustomerQuery } from './customerApi.ts';
import { forgetBillingAccountUnlessFor, rememberBillingAccount, rememberedBillingAccount } from './billing-account-memory.ts';
import type { CustomerDocument } from '@cc/shared/schemas/customers.ts';

const NO_CUSTOMERS: CustomerRef[] = [];

/**
 * The selected customer (spec 001 §4): the stored selection if it is one of the user's customers,
 * otherwise the first one. `select` stores the choice in the `selectedCustomer` cookie.
 *
 * The claims name only the first customers (`partial` when there are more: an admin with hundreds); a stored
 * selection past them is looked up by its document, and one the api refuses or does not know falls back to the first.
 */
export function useSelectedCustomer() {
  const dispatch = useAppDispatch();
  const customers = useAppSelector((s) => s.session.claims?.customers ?? NO_CUSTOMERS);
  const partial = useAppSelector((s) => (s.session.claims?.customer_count ?? 0) > (s.session.claims?.customers.length ?? 0));
  const wish = useAppSelector((s) => s.selection.customerId) ?? readCookie(SELECTED_CUSTOMER_COOKIE);
  const listed = customers.find((c) => c.id === wish);
  const lookUp = partial && !!wish && !listed;
  const { currentData: found, isError: refused } = useGetCustomerQuery(wish ?? '', { skip: !lookUp });
  const beyond: CustomerRef | null = lookUp && !refused && wish ? { id: wish, name: found?.customer_name ?? wish, entity: found?.entity ?? null } : null;
  const selected = listed ?? beyond ?? customers[0] ?? null;
  const select = useCallback(
    (customerId: string) => {
      writeCookie(SELECTED_CUSTOMER_COOKIE, customerId);
      forgetBillingAccountUnlessFor(customerId);
      dispatch(customerSelected({ customerId }));
    },
    [dispatch],
  );
  return { customers, partial, selected, select };
}

/**
 * The selected customer's document. There is no customer yet, or the call failed: `customer` is
 * null, which reads as every feature off and no billing account.
 */
export function useCurrentCustomer(): { customer: CustomerDocument | null; isLoading: boolean; isError: boolean } {
  const { selected } = useSelectedCustomer();
  // currentData, not data: while switching customers the previous customer's flags must not gate
  // the new one's pages.
  const { currentData, isFetching, isError } = useGetCustomerQuery(selected?.id ?? '', { skip: !selected });
  const customer = !isError && currentData ? currentData : null;
  return { customer, isLoading: !customer && !isError && isFetching, isError };
}

/**
 * The selected customer's billing accounts; the chosen one if still valid, else the first. The choice is
 * remembered (billing-account-memory.ts), so a reload or a deep link in the same browser keeps it.
 */
export function useBillingAccounts() {
  const dispatch = useAppDispatch();
  const { customer } = useCurrentCustomer();
  const customerId = customer?.customer_id ?? null;
  const accounts = splitBillingAccounts(customer?.billing_account_id);
  const chosen = useAppSelector((s) => s.selection.billingAccountId);
  const wish = chosen ?? (customerId ? rememberedBillingAccount(customerId) : null);
  const active = wish && accounts.includes(wish) ? wish : (accounts[0] ?? null);
  const select = useCallback(
    (billingAccountId: string) => {
      if (customerId) rememberBillingAccount(customerId, billingAccountId);
      dispatch(billingAccountSelected({ billingAccountId }));
    },
    [dispatch, customerId],
  );
  return { accounts, active, select };
}
