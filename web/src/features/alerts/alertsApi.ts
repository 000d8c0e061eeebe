import { api } from '../../app/api.ts';

/** 'service' is shown as Total (no labels). */
export type AlertGroupBy = 'service' | 'project_label' | 'resource_label';

/** A billing alert (spec 001 §3). */
export interface Alert {
  id: number;
  group_by: AlertGroupBy;
  /** '' for Total. */
  label_key: string;
  /** '' for Total. */
  label_value: string;
  quota: number;
}

export interface AlertInput {
  group_by: AlertGroupBy;
  label_key: string;
  label_value: string;
  /** Decimal text as typed: money never passes through a float on its way to numeric (the api accepts text or number). */
  quota: string;
}

/** One e-mailed first crossing of a quota in a billing month. */
export interface AlertNotice {
  id: number;
  alert_id: number;
  /** YYYY-MM. */
  month: string;
  group_by: AlertGroupBy;
  label_key: string;
  label_value: string;
  quota: number;
  spend: number;
  currency: string;
  evaluated_day: string;
  recipients: string[];
  created_at: string;
}

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
    createAlert: build.mutation<Alert, { customer: string; alert: AlertInput }>({
      query: ({ customer, alert }) => ({ url: base(customer), method: 'POST', body: alert }),
      invalidatesTags: (_r, _e, { customer }) => [{ type: 'Alert', id: `LIST/${customer}` }],
    }),
    deleteAlerts: build.mutation<{ deleted: number }, { customer: string; ids: number[] }>({
      query: ({ customer, ids }) => ({ url: base(customer), method: 'DELETE', body: { ids } }),
      invalidatesTags: (_r, _e, { customer, ids }) => [
        { type: 'Alert', id: `LIST/${customer}` },
        ...ids.map((id) => ({ type: 'Alert' as const, id })),
      ],
    }),
  }),
});

export const { useGetAlertsQuery, useGetAlertNoticesQuery, useCreateAlertMutation, useDeleteAlertsMutation } = alertsApi;
