import type {
  CustomerCreate,
  CustomerDocument,
  CustomerEntity,
  CustomerUpdate,
  MemberList,
  ScriptAnswer,
  ScriptRequest,
  ServiceAccessAnswer,
} from '@cc/shared/schemas/customers.ts';
import { api } from '../../app/api.ts';

/**
 * The customer administration calls (spec 001 §2.4, §2.5, §3). The customer document itself
 * (`GET /v1/customers/{id}/`) is app/selection/customerApi.ts: the frame reads it for every screen.
 */

/** What the form sends on create and on update; the id names the customer (read-only once created). */
export type CustomerSave = (CustomerCreate | CustomerUpdate) & { customer_id: string };

const LIST = { type: 'Customer' as const, id: 'LIST' };

export const customersApi = api.injectEndpoints({
  endpoints: (build) => ({
    listCustomers: build.query<CustomerDocument[], void>({
      query: () => '/v1/customers/',
      providesTags: (result) => [LIST, ...(result ?? []).map((c) => ({ type: 'Customer' as const, id: c.customer_id }))],
    }),
    createCustomer: build.mutation<CustomerDocument, CustomerSave>({
      query: (body) => ({ url: '/v1/customers/', method: 'POST', body }),
      invalidatesTags: [LIST, { type: 'Session' }],
    }),
    updateCustomer: build.mutation<CustomerDocument, CustomerSave>({
      query: (body) => ({ url: `/v1/customers/${encodeURIComponent(body.customer_id)}/`, method: 'PUT', body }),
      invalidatesTags: (_r, _e, { customer_id }) => [LIST, { type: 'Customer', id: customer_id }],
    }),
    /** The three e-mail lists of a customer (spec 001 §3): access, support notifications, billing alerts. */
    changeCustomerMembers: build.mutation<CustomerDocument, { id: string; list: MemberList; action: 'add' | 'remove'; users: string[] }>({
      query: ({ id, list, action, users }) => ({
        url: `/v1/customers/${encodeURIComponent(id)}/lists/${list}/`,
        method: action === 'add' ? 'POST' : 'DELETE',
        body: { users },
      }),
      invalidatesTags: (_r, _e, { id }) => [LIST, { type: 'Customer', id }, { type: 'User', id: 'LIST' }],
    }),
    getServiceAccess: build.query<ServiceAccessAnswer, string>({
      query: (id) => `/v1/customers/${encodeURIComponent(id)}/service/access/`,
      providesTags: (_r, _e, id) => [{ type: 'Customer', id: `${id}/access` }],
    }),
    /** The customer's entity as its own users may read it (Customer Settings); nulls when it has none. */
    getCustomerEntity: build.query<CustomerEntity, string>({
      query: (id) => `/v1/customers/${encodeURIComponent(id)}/entity/`,
      providesTags: (_r, _e, id) => [{ type: 'Customer', id }, { type: 'Entity', id: 'LIST' }],
    }),
    generateServiceScript: build.mutation<ScriptAnswer, ScriptRequest & { customer_id: string }>({
      query: (body) => ({ url: `/v1/customers/${encodeURIComponent(body.customer_id)}/service/script/`, method: 'POST', body }),
    }),
  }),
});

export const {
  useListCustomersQuery,
  useCreateCustomerMutation,
  useUpdateCustomerMutation,
  useChangeCustomerMembersMutation,
  useGetServiceAccessQuery,
  useGetCustomerEntityQuery,
  useGenerateServiceScriptMutation,
} = customersApi;
