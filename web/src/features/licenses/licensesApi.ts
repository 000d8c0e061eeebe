import type { HistoryRecord, License, LicenseOrder, WorkspaceSubscription } from '@cc/shared/schemas/licenses.ts';
import { api } from '../../app/api.ts';

const enc = encodeURIComponent;

export interface LicenseInput {
  sku_id: string;
  threshold: string;
  auto_order: boolean;
  new_order: string;
}

/** The seven license calls of spec 001 §7, and the domain's subscriptions to create a license for; {domain} is the customer's domain_name. */
export const licensesApi = api.injectEndpoints({
  endpoints: (build) => ({
    getLicenses: build.query<License[], string>({
      query: (domain) => `/v1/licenses/${enc(domain)}`,
      providesTags: [{ type: 'License', id: 'LIST' }],
    }),
    getSubscriptions: build.query<WorkspaceSubscription[], string>({
      query: (domain) => `/v1/licenses/subscriptions/${enc(domain)}`,
      providesTags: [{ type: 'License', id: 'LIST' }],
    }),
    createLicense: build.mutation<License, { domain: string; license: LicenseInput }>({
      query: ({ domain, license }) => ({ url: `/v1/licenses/${enc(domain)}`, method: 'PUT', body: license }),
      invalidatesTags: [{ type: 'License', id: 'LIST' }, { type: 'License', id: 'HISTORY' }],
    }),
    updateLicense: build.mutation<License, { domain: string; skuId: string; body: { auto_order: boolean; threshold: string; new_order: string } }>({
      query: ({ domain, skuId, body }) => ({ url: `/v1/licenses/${enc(domain)}/${enc(skuId)}/`, method: 'POST', body }),
      invalidatesTags: [{ type: 'License', id: 'LIST' }, { type: 'License', id: 'HISTORY' }, { type: 'License', id: 'ORDERS' }],
    }),
    placeOrder: build.mutation<LicenseOrder, { domain: string; body: License & { order_amount: string; comment: string; customer_id: string; order_by: string } }>({
      query: ({ domain, body }) => ({ url: `/v1/licenses/orders/${enc(domain)}`, method: 'PUT', body }),
      invalidatesTags: [{ type: 'License', id: 'ORDERS' }, { type: 'License', id: 'HISTORY' }],
    }),
    decideOrder: build.mutation<LicenseOrder, { domain: string; orderId: string; approve: boolean }>({
      query: ({ domain, orderId, approve }) => ({ url: `/v1/licenses/orders/${enc(domain)}/${enc(orderId)}/${approve}`, method: 'POST' }),
      invalidatesTags: [{ type: 'License', id: 'LIST' }, { type: 'License', id: 'ORDERS' }, { type: 'License', id: 'HISTORY' }],
    }),
    getOrders: build.query<LicenseOrder[], string>({
      query: (customer) => `/v1/licenses/orders/history/${enc(customer)}`,
      providesTags: [{ type: 'License', id: 'ORDERS' }],
    }),
    getLicenseHistory: build.query<HistoryRecord[], string>({
      query: (domain) => `/v1/licenses/history/${enc(domain)}/true`,
      providesTags: [{ type: 'License', id: 'HISTORY' }],
    }),
  }),
});

export const {
  useGetLicensesQuery,
  useGetSubscriptionsQuery,
  useCreateLicenseMutation,
  useUpdateLicenseMutation,
  usePlaceOrderMutation,
  useDecideOrderMutation,
  useGetOrdersQuery,
  useGetLicenseHistoryQuery,
} = licensesApi;
