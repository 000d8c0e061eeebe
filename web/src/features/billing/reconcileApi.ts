import { api } from '../../app/api.ts';
import type { ReconcileAnswer } from '@cc/shared/schemas/billing-reconcile.ts';

export interface ReconcileArgs {
  customer: string;
  billingAccountId: string;
  /** YYYY-MM; absent: the newest month with data. */
  month?: string;
  provider: string;
}

export const reconcileApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** 'Reconcile with invoice' of one month (GET /v2/billing/reconcile/{customer}). */
    getReconcile: build.query<ReconcileAnswer, ReconcileArgs>({
      query: ({ customer, billingAccountId, month, provider }) =>
        `/v2/billing/reconcile/${encodeURIComponent(customer)}?${new URLSearchParams({ billing_account_id: billingAccountId, provider, ...(month ? { month } : {}) })}`,
      providesTags: (_r, _e, { customer }) => [{ type: 'Billing', id: `reconcile-${customer}` }],
    }),
  }),
});

export const { useGetReconcileQuery } = reconcileApi;
