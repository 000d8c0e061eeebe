import type { Alert, AlertCreateBody, AlertDeleteAnswer, AlertNotice } from '@cc/shared/schemas/insights.ts';
import { api } from '../../app/api.ts';

const base = (customer: string) => `/v1/alerts/${encodeURIComponent(customer)}/`;

/** Alerts and their notices (spec 001 §7): GET/POST/DELETE /v1/alerts/{customer}/. */
export const alertsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getAlerts: build.query<Alert[], string>({
      query: (customer) => base(customer),
      providesTags: (result, _e, customer) => [
        { type: 'Alert', id: `LIST/${customer}` },
        ...(result ?? []).map((a) => ({ type: 'Alert' as const, id: a.id })),
      ],
    }),
    getAlertNotices: build.query<AlertNotice[], string>({
      query: (customer) => `${base(customer)}notices/`,
      providesTags: (_r, _e, customer) => [{ type: 'Alert', id: `NOTICES/${customer}` }],
    }),
    createAlert: build.mutation<Alert, { customer: string; alert: AlertCreateBody }>({
      query: ({ customer, alert }) => ({ url: base(customer), method: 'POST', body: alert }),
      invalidatesTags: (_r, _e, { customer }) => [{ type: 'Alert', id: `LIST/${customer}` }],
    }),
    deleteAlerts: build.mutation<AlertDeleteAnswer, { customer: string; ids: number[] }>({
      query: ({ customer, ids }) => ({ url: base(customer), method: 'DELETE', body: { ids } }),
      invalidatesTags: (_r, _e, { customer, ids }) => [
        { type: 'Alert', id: `LIST/${customer}` },
        ...ids.map((id) => ({ type: 'Alert' as const, id })),
      ],
    }),
  }),
});

export const { useGetAlertsQuery, useGetAlertNoticesQuery, useCreateAlertMutation, useDeleteAlertsMutation } = alertsApi;
