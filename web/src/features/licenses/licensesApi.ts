import type { HistoryRecord, License, LicenseOrder, WorkspaceSubscription } from '@cc/shared/schemas/licenses.ts';
import { api } from '../../app/api.ts';

const enc = encodeURIComponent;

/** A page of a list paged on the server and how many rows the whole list has (X-Total-Count). */
export interface ListPage<Row> {
  rows: Row[];
  total: number;
}

export interface PageArg {
  page: number;
  pageSize: number;
}

const params = ({ page, pageSize }: PageArg) => ({ limit: pageSize, offset: page * pageSize });

function withTotal<Row>(rows: Row[], meta: { response?: Response } | undefined): ListPage<Row> {
  const total = Number(meta?.response?.headers.get('x-total-count'));
  return { rows, total: Number.isFinite(total) && total >= rows.length ? total : rows.length };
}

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
    /** One page of the orders, newest first; the count of all in X-Total-Count. */
    getOrders: build.query<ListPage<LicenseOrder>, { customer: string } & PageArg>({
      query: ({ customer, ...page }) => ({ url: `/v1/licenses/orders/history/${enc(customer)}`, params: params(page) }),
      transformResponse: withTotal<LicenseOrder>,
      providesTags: [{ type: 'License', id: 'ORDERS' }],
    }),
    /** One page of the history with orders, newest first; the count of all in X-Total-Count. */
    getLicenseHistory: build.query<ListPage<HistoryRecord>, { domain: string } & PageArg>({
      query: ({ domain, ...page }) => ({ url: `/v1/licenses/history/${enc(domain)}/true`, params: params(page) }),
      transformResponse: withTotal<HistoryRecord>,
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
