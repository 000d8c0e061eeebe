import { api } from '../../app/api.ts';
import type { CustomerDocument } from '@cc/shared/schemas/customer.ts';
import type { CustomerRecord, TierRow } from '@cc/shared/admin/customer-input.ts';

/** The three e-mail lists of a customer (spec 001 §3): access, support notifications, billing alerts. */
export type MemberListName = 'users' | 'notify' | 'alert';

/** A tier of the Tier Discount dashboard (spec 000 §3). */
export type DiscountTier = TierRow;

/**
 * The editable customer fields sent by POST /v1/customers/ and PUT /v1/customers/{id}/: the server's record
 * (one definition, shared/src/admin/customer-input.ts), with the entity and billing accounts as the form writes them.
 * The customer id is derived from the name on create and ignored by the api on update.
 */
export type CustomerInput = Omit<CustomerRecord, 'entity' | 'billing_account_ids'> & { entity: string; billing_account_id: string };

export interface GcpProject {
  project_id: string;
  project_name: string;
}

const LIST = { type: 'Customer' as const, id: 'LIST' };

export const customerManagementApi = api.injectEndpoints({
  endpoints: (build) => ({
    listCustomers: build.query<CustomerDocument[], void>({
      query: () => '/v1/customers/',
      providesTags: (result) => [LIST, ...(result ?? []).map((c) => ({ type: 'Customer' as const, id: c.customer_id }))],
    }),
    createCustomer: build.mutation<CustomerDocument, CustomerInput>({
      query: (body) => ({ url: '/v1/customers/', method: 'POST', body }),
      invalidatesTags: [LIST, { type: 'Session' }],
    }),
    updateCustomer: build.mutation<CustomerDocument, CustomerInput>({
      query: (body) => ({ url: `/v1/customers/${encodeURIComponent(body.customer_id)}/`, method: 'PUT', body }),
      invalidatesTags: (_r, _e, { customer_id }) => [LIST, { type: 'Customer', id: customer_id }],
    }),
    changeCustomerMembers: build.mutation<CustomerDocument, { id: string; list: MemberListName; action: 'add' | 'remove'; users: string[] }>({
      query: ({ id, list, action, users }) => ({
        url: `/v1/customers/${encodeURIComponent(id)}/lists/${list}/`,
        method: action === 'add' ? 'POST' : 'DELETE',
        body: { users },
      }),
      invalidatesTags: (_r, _e, { id }) => [LIST, { type: 'Customer', id }, { type: 'User', id: 'LIST' }],
    }),
    getServiceAccess: build.query<{ service_account_email: string; projects: GcpProject[] }, string>({
      query: (id) => `/v1/customers/${encodeURIComponent(id)}/service/access/`,
      providesTags: (_r, _e, id) => [{ type: 'Customer', id: `${id}/access` }],
    }),
    /** The customer's entity as its own users may read it (Customer Settings); nulls when it has none. */
    getCustomerEntity: build.query<{ id: string | null; name: string | null }, string>({
      query: (id) => `/v1/customers/${encodeURIComponent(id)}/entity/`,
      providesTags: (_r, _e, id) => [{ type: 'Customer', id }, { type: 'Entity', id: 'LIST' }],
    }),
    generateServiceScript: build.mutation<{ script: string }, { customer_id: string; action: 'grant' | 'revoke'; project_ids: string[] }>({
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
} = customerManagementApi;
