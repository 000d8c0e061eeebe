/**
 * Billing wire types as the web reads them (spec 000 §3, §7 Billing; 001 §3 Chart data). They mirror
 * the api's TypeBox schemas in shared/src/schemas/billing.ts; the web does not import api code.
 */

export type Provider = 'gcp' | 'aws' | 'azure' | 'all';
export type Period = '7days' | '30days' | '12months' | 'CustomizedPeriod';
/** Spec 000 §9: serviceAndProject is shown as Service. */
export type GroupBy = 'serviceAndProject' | 'projectLabel' | 'resourceLabel';
/** Top N: 5, 10, 15 or 0 for All. */
export type TopN = 0 | 5 | 10 | 15;

/** GET /v2/billing/settings/{customer}. */
export interface BillingSettingsAnswer {
  providers: string[];
  services: string[];
  /** label key -> values. */
  project_labels: Record<string, string[]>;
  /** label key -> values; a key without values is '(not applicable)'. */
  resource_labels: Record<string, string[]>;
  currency?: string;
  billing_dashboard_type?: string;
}

/** One bar: its date, the stacked values per key (numbers for plotting) and its exact total. */
export interface ChartBar {
  date: string;
  values: Record<string, number>;
  /** Exact decimal string, 2 decimals. */
  total: string;
}

export interface ChartSeries {
  key: string;
  group: string;
  project_id: string | null;
  project_name: string | null;
  total: string;
}

/** One month of the discount summary (spec 000 §3 'Billing chart month'); money as decimal strings. */
export interface BillingMonth {
  month: string;
  monthly_spend: string;
  forecasted_monthly_spend: string;
  discount: string;
  reached_tier: string | null;
  forecasted_reached_tier: string | null;
  discounted_spend: string;
  forecasted_discounted_spend: string;
}

/** Spend Sum panel figures: selected period, month-to-date, previous month. */
export interface SpendSummary {
  custom: string;
  month_to_date: string;
  previous_month: string;
}

/** Chart answer (spec 001 §3 Chart data: keys, data, colors, max_value, summary; plus the months and range). */
export interface ChartPayload {
  keys: string[];
  data: ChartBar[];
  colors: Record<string, string>;
  max_value: number;
  summary: SpendSummary;
  series?: ChartSeries[];
  months?: BillingMonth[];
  range?: { start_date: string; end_date: string; granularity: 'day' | 'month'; label: string };
  currency?: string;
  billing_dashboard_type?: string;
  /** Tier Discount: the customer's tiers by ascending threshold; empty for the other types. */
  tiers?: DiscountTier[];
  top?: number;
}

export interface DiscountTier {
  threshold_spend: string;
  percentage: string;
}

/** Export answer: written as cc_{provider}_billing_data_{range}.csv. */
export interface ExportAnswer {
  headers: string[];
  rows: string[][];
}
