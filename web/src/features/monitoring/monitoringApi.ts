import type { HealthFigures, MonitoringPanel, MonitoringPassword, MonitoringRun } from '@cc/shared/schemas/monitoring.ts';
import { api } from '../../app/api.ts';

const base = (customer: string) => `/v1/monitoring/${encodeURIComponent(customer)}/`;

/** System Health (spec 000 §7 Monitoring): password, Initialize / Rebuild Dashboard, the panel and the built-in figures. */
export const monitoringApi = api.injectEndpoints({
  endpoints: (build) => ({
    getMonitoringPanel: build.query<MonitoringPanel, string>({
      query: (customer) => base(customer),
      providesTags: (_r, _e, customer) => [{ type: 'Monitoring', id: `PANEL/${customer}` }],
    }),
    // The spec's password fetch is a POST; it changes nothing, so it is a query the runs invalidate.
    getMonitoringPassword: build.query<MonitoringPassword, string>({
      query: (customer) => ({ url: `${base(customer)}password`, method: 'POST' }),
      providesTags: (_r, _e, customer) => [{ type: 'Monitoring', id: `PASSWORD/${customer}` }],
    }),
    getHealthFigures: build.query<HealthFigures, string>({
      query: (customer) => `${base(customer)}figures/`,
    }),
    runMonitoring: build.mutation<MonitoringRun, { customer: string; action: 'initialise' | 'rebuild' }>({
      query: ({ customer, action }) => ({ url: action === 'initialise' ? base(customer) : `${base(customer)}rebuild`, method: 'POST' }),
      // Refetched after a failure too: the panel shows the failed status, the password may exist now.
      invalidatesTags: (_r, _e, { customer }) => [
        { type: 'Monitoring', id: `PANEL/${customer}` },
        { type: 'Monitoring', id: `PASSWORD/${customer}` },
        // grafana_link in the customer document is set by the first successful run
        { type: 'Customer', id: customer },
      ],
    }),
  }),
});

export const { useGetMonitoringPanelQuery, useGetMonitoringPasswordQuery, useGetHealthFiguresQuery, useRunMonitoringMutation } = monitoringApi;
