import { api } from '../../app/api.ts';
import type { BillingPeriod, BillingProvider, BillingSettings, ChartPayload, CostBasis, ExportAnswer, TopN } from '@cc/shared/schemas/billing.ts';

/** The six chart routes of spec 000 §7 Billing, by the tab that draws them. */
export type ChartKind = 'serviceTotal' | 'serviceDetails' | 'projectLabelTotal' | 'projectLabelDetails' | 'resourceLabelTotal' | 'resourceLabelDetails';

const CHART_PATHS: Record<ChartKind, string> = {
  serviceTotal: '/v2/billing/aggregated/by_service/chart',
  serviceDetails: '/v2/billing/details/chart',
  projectLabelTotal: '/v2/billing/project/labels/chart',
  projectLabelDetails: '/v2/billing/project/labels/details/chart',
  resourceLabelTotal: '/v2/billing/resource/labels/chart',
  resourceLabelDetails: '/v2/billing/resource/labels/details/chart',
};

/** Detail routes take the time zone (spec 000 §7); the totals do not. */
const DETAIL_KINDS = new Set<ChartKind>(['serviceDetails', 'projectLabelDetails', 'resourceLabelDetails']);

/** What every chart and export call says about the period and account. */
export interface ChartScope {
  customer: string;
  billingAccountId: string;
  provider: BillingProvider;
  period: BillingPeriod;
  /** yyyy-MM-dd, only with CustomizedPeriod. */
  startDate?: string;
  endDate?: string;
  timezone: string;
  /** Billed or amortised: every figure of the answer is on this basis (sent as cost_basis). */
  costBasis: CostBasis;
}

export interface ChartArgs extends ChartScope {
  kind: ChartKind;
  top: TopN;
  /** Service charts: selected services, empty when all are selected. */
  services?: string[];
  projectLabel?: string;
  resourceLabel?: string;
  /** Detail tabs' Projects multi-select; empty = All Selected. */
  projects?: string[];
}

export type ExportKind = 'serviceDetails' | 'projectLabelDetails';

export interface ExportArgs extends ChartScope {
  kind: ExportKind;
  services?: string[];
  projectLabel?: string;
  /** The detail tab's Projects choice; empty = All Selected. */
  projects?: string[];
}

/** The export body: the grouping's choice, and the Projects choice when one was made. */
export function exportBody(a: ExportArgs): Record<string, unknown> {
  const projects = a.projects && a.projects.length > 0 ? { projects: a.projects } : {};
  return a.kind === 'serviceDetails' ? { services: a.services ?? [], ...projects } : { project_label: a.projectLabel ?? '', ...projects };
}

function scopeParams(a: ChartScope, withTimezone: boolean): URLSearchParams {
  const q = new URLSearchParams({ billing_account_id: a.billingAccountId, provider: a.provider, period: a.period });
  if (a.period === 'CustomizedPeriod') {
    if (a.startDate) q.set('start_date', a.startDate);
    if (a.endDate) q.set('end_date', a.endDate);
  }
  if (withTimezone) q.set('timezone', a.timezone);
  q.set('cost_basis', a.costBasis);
  return q;
}

function chartBody(a: ChartArgs): Record<string, unknown> {
  const projects = a.kind.endsWith('Details') ? { projects: a.projects ?? [] } : {};
  if (a.kind.startsWith('service')) return { services: a.services ?? [], ...projects };
  if (a.kind.startsWith('projectLabel')) return { project_label: a.projectLabel ?? '', ...projects };
  return { resource_label: a.resourceLabel ?? '', ...projects };
}

export const billingApi = api.injectEndpoints({
  endpoints: (build) => ({
    /**
     * The drawer's choices: with `provider`, the services and labels of that provider's rows only; without it
     * (alerts, viewers), every provider's.
     */
    getBillingSettings: build.query<BillingSettings, { customer: string; billingAccountId: string; provider?: BillingProvider }>({
      query: ({ customer, billingAccountId, provider }) =>
        `/v2/billing/settings/${encodeURIComponent(customer)}?${new URLSearchParams({ billing_account_id: billingAccountId, ...(provider ? { provider } : {}) })}`,
      providesTags: (_r, _e, { customer }) => [{ type: 'Billing', id: `settings-${customer}` }],
    }),
    /** Cached per customer + account + settings (spec 000 §4): the args are the cache key. */
    getBillingChart: build.query<ChartPayload, ChartArgs>({
      query: (a) => {
        const q = scopeParams(a, DETAIL_KINDS.has(a.kind));
        q.set('top', String(a.top));
        return { url: `${CHART_PATHS[a.kind]}/${encodeURIComponent(a.customer)}?${q}`, method: 'POST', body: chartBody(a) };
      },
      providesTags: (_r, _e, { customer }) => [{ type: 'Billing', id: `chart-${customer}` }],
    }),
    /** A one-off download, not cached. */
    exportBilling: build.mutation<ExportAnswer, ExportArgs>({
      query: (a) => ({
        url: `${CHART_PATHS[a.kind]}/${encodeURIComponent(a.customer)}/export?${scopeParams(a, true)}`,
        method: 'POST',
        body: exportBody(a),
      }),
    }),
  }),
});

export const { useGetBillingSettingsQuery, useGetBillingChartQuery, useExportBillingMutation } = billingApi;
