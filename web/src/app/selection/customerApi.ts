import type { CustomerDocument } from '@cc/shared/schemas/customers.ts';
import type { CustomerRef } from '@cc/shared/claims.ts';
import { api } from '../api.ts';

/** Billing accounts of a customer, default first; spaces are not part of ids (spec 001 §2.4). */
export function splitBillingAccounts(value: unknown): string[] {
  if (typeof value !== 'string') return [];
  return value
    .split(',')
    .map((s) => s.replace(/\s+/g, ''))
    .filter(Boolean);
}

/**
 * `GET /v1/customers/{id}/`: the customer document, whose flags gate menus and screens. Here rather than
 * in the customer admin area because the frame reads it for every screen; the admin screens read it too.
 */
export const customerApi = api.injectEndpoints({
  endpoints: (build) => ({
    getCustomer: build.query<CustomerDocument, string>({
      query: (id) => `/v1/customers/${encodeURIComponent(id)}/`,
      providesTags: (_result, _error, id) => [{ type: 'Customer', id }],
    }),
    /** `GET /v1/auth/me/customers`: the customers the user may act for whose name or id holds `q` (the picker's search). */
    searchCustomers: build.query<{ items: CustomerRef[]; total: number }, string>({
      query: (q) => `/v1/auth/me/customers?${new URLSearchParams({ q, limit: String(CUSTOMER_SEARCH_LIMIT) })}`,
      providesTags: [{ type: 'Customer', id: 'LIST' }],
    }),
  }),
});

/** Matches shown by the customer picker's search at once. */
export const CUSTOMER_SEARCH_LIMIT = 50;

export const { useGetCustomerQuery, useSearchCustomersQuery } = customerApi;
