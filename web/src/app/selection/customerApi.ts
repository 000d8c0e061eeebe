import type { CustomerDocument } from '@cc/shared/schemas/customers.ts';
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
  }),
});

export const { useGetCustomerQuery } = customerApi;
