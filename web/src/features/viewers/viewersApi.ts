import type { Viewer, ViewerFilterAddBody } from '@cc/shared/schemas/insights.ts';
import { api } from '../../app/api.ts';

const base = (customer: string) => `/v1/viewers/${encodeURIComponent(customer)}/`;
const listTag = (customer: string) => ({ type: 'Viewer' as const, id: `LIST/${customer}` });

/** Billing viewers and their filters (spec 001 §2.9, §7 'viewer filter per user'). */
export const viewersApi = api.injectEndpoints({
  endpoints: (build) => ({
    getViewers: build.query<Viewer[], string>({
      query: (customer) => base(customer),
      providesTags: (_r, _e, customer) => [listTag(customer)],
    }),
    addViewerFilter: build.mutation<Viewer[], { customer: string; filter: ViewerFilterAddBody }>({
      query: ({ customer, filter }) => ({ url: `${base(customer)}filters/`, method: 'POST', body: filter }),
      // The data is reloaded after every change (spec 001 §4); a viewer's billing answers change too.
      invalidatesTags: (_r, _e, { customer }) => [listTag(customer), 'Billing', 'Anomaly'],
    }),
    removeViewerFilters: build.mutation<Viewer[], { customer: string; user: string }>({
      query: ({ customer, user }) => ({ url: `${base(customer)}filters/${encodeURIComponent(user)}/`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, { customer }) => [listTag(customer), 'Billing', 'Anomaly'],
    }),
  }),
});

export const { useGetViewersQuery, useAddViewerFilterMutation, useRemoveViewerFiltersMutation } = viewersApi;
