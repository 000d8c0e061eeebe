/**
 * Billing routes: request and response schemas (spec 000 §3, §4 Billing, §7 Billing, §9; 001 §2.13, §9).
 * Decisions behind the shapes are in docs/decisions-billing.md.
 *
 * Routes ({customer} is the customer_id; every chart/export query takes ChartQuery below):
 *   GET  /v2/billing/settings/{customer}?billing_account_id[&provider]                       -> BillingSettings
 *   POST /v2/billing/aggregated/by_service/chart/{customer}?billing_account_id&provider&period[&start_date&end_date][&top]
 *        body { services }                                                                    -> ChartPayload (Total tab, series = services)
 *   POST /v2/billing/details/chart/{customer}?billing_account_id&provider&period&timezone[&start_date&end_date][&top]
 *        body { services, projects? }                                                         -> ChartPayload (Project with Service, series = project / service)
 *   POST /v2/billing/project/labels/chart/{customer}?billing_account_id&period[...]
 *        body { project_label }                                                               -> ChartPayload (series = label values)
 *   POST /v2/billing/project/labels/details/chart/{customer}?billing_account_id&period&timezone[...]
 *        body { project_label, projects? }                                                    -> ChartPayload (series = label value / project)
 *   POST /v2/billing/resource/labels/chart/{customer}?...          body { resource_label }     -> ChartPayload
 *   POST /v2/billing/resource/labels/details/chart/{customer}?...  body { resource_label, projects? } -> ChartPayload
 *   POST /v2/billing/details/chart/{customer}/export?billing_account_id&provider&period&timezone[&start_date&end_date]
 *        body { services }                                                                    -> ExportAnswer
 *   POST /v2/billing/project/labels/details/chart/{customer}/export?billing_account_id&period&timezone[...]
 *        body { project_label }                                                               -> ExportAnswer
 *   POST /v2/billing/ingest (admin)  body IngestRequest                                       -> 202 IngestAccepted
 *
 * Permissions: settings and charts billing_read; exports export_read; ingest admin. A customerViewer gets only the
 * project-label routes, restricted to rows whose project labels match one of their viewer filters.
 * Money: decimal strings rounded half away from zero to 2 places (exact, from PostgreSQL numeric); chart `values`,
 * `max_value` are plain numbers for plotting only.
 */
import { Type, type Static } from '@sinclair/typebox';
import { COST_BASES } from '../billing/cost-basis.ts';

const ISO_DATE = '^\\d{4}-\\d{2}-\\d{2}$';
/** A money amount: exact decimal string with 2 decimals, e.g. "1234.50" or "-3.07". */
export const Money = Type.String({ pattern: '^-?\\d+\\.\\d{2}$', description: 'exact amount, 2 decimals' });

export const PROVIDERS = ['gcp', 'aws', 'azure', 'all'] as const;
export type BillingProvider = (typeof PROVIDERS)[number];
export const PERIODS = ['7days', '30days', '12months', 'CustomizedPeriod'] as const;
export type BillingPeriod = (typeof PERIODS)[number];
export const TOP_N = [0, 5, 10, 15] as const;
/** Top N: 5, 10, 15 or 0 for All. */
export type TopN = (typeof TOP_N)[number];
export const DASHBOARD_TYPES = ['Standard', 'Set Discount', 'Tier Discount'] as const;
// cost bases live in a module without TypeBox, which the web app's billing page reads (a smaller first load)
export { COST_BASES, COST_BASIS_LABELS, type CostBasis } from '../billing/cost-basis.ts';

export const CustomerParams = Type.Object({ customer: Type.String() });

/**
 * Query of every chart and export route. Values are checked by the handler (400 with a detail message) rather than
 * by enums, so a bad provider/period/date answers a readable detail. provider defaults to gcp, period to 12months,
 * timezone to US/Pacific, top to 10 (0 = All). billing_account_id defaults to the customer's first account.
 */
export const ChartQuery = Type.Object({
  billing_account_id: Type.Optional(Type.String()),
  provider: Type.Optional(Type.String({ description: 'gcp (default), aws, azure, all' })),
  period: Type.Optional(Type.String({ description: '7days, 30days, 12months (default), CustomizedPeriod' })),
  start_date: Type.Optional(Type.String({ description: 'yyyy-MM-dd, with CustomizedPeriod' })),
  end_date: Type.Optional(Type.String({ description: 'yyyy-MM-dd, with CustomizedPeriod' })),
  timezone: Type.Optional(Type.String({ description: 'IANA zone deciding "today" (default US/Pacific)' })),
  top: Type.Optional(Type.String({ description: 'Top N: 5, 10 (default), 15 or 0 for All' })),
  cost_basis: Type.Optional(Type.String({ description: 'billed (default: cash, as invoiced) or amortised (commitment purchases spread over the usage they cover)' })),
});
export type ChartQuery = Static<typeof ChartQuery>;

export const SettingsQuery = Type.Object({
  billing_account_id: Type.Optional(Type.String()),
  /** Limits services and labels to one provider's rows (default all). */
  provider: Type.Optional(Type.String()),
});
export type SettingsQuery = Static<typeof SettingsQuery>;

/** Body of the service charts: the selected services, empty list when all are selected. */
export const ServicesBody = Type.Object({
  services: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { maxItems: 1000 })),
  /** Projects multi-select of the detail tabs (project ids); empty or absent = All Selected. */
  projects: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { maxItems: 1000 })),
});
export type ServicesBody = Static<typeof ServicesBody>;

/** Body of the project-label charts: the label key chosen in settings (required, 'This field is required'). */
export const ProjectLabelBody = Type.Object({
  project_label: Type.String(),
  projects: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { maxItems: 1000 })),
});
export type ProjectLabelBody = Static<typeof ProjectLabelBody>;

/** Body of the resource-label charts: the label key chosen in settings. */
export const ResourceLabelBody = Type.Object({
  resource_label: Type.String(),
  projects: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { maxItems: 1000 })),
});
export type ResourceLabelBody = Static<typeof ResourceLabelBody>;

/** GET settings answer (spec 000 §3 'Billing settings response'). */
export const BillingSettings = Type.Object({
  /** Providers present in the account's data (gcp, aws, azure, or a FOCUS provider kept by name such as oracle). */
  providers: Type.Array(Type.String()),
  services: Type.Array(Type.String()),
  /** label key -> its values. */
  project_labels: Type.Record(Type.String(), Type.Array(Type.String())),
  /** label key -> its values; a key with an empty list is shown '(not applicable)'. */
  resource_labels: Type.Record(Type.String(), Type.Array(Type.String())),
  currency: Type.String(),
  billing_dashboard_type: Type.String(),
});
export type BillingSettings = Static<typeof BillingSettings>;

/** One bar: the date (yyyy-MM-dd by day, yyyy-MM by month), its stacked values per key, its exact total. */
export const ChartBar = Type.Object({
  date: Type.String(),
  /** key -> spend (number, for plotting); keys absent from a bar are 0. */
  values: Type.Record(Type.String(), Type.Number()),
  total: Money,
});
export type ChartBar = Static<typeof ChartBar>;

/** Metadata of a series key (detail charts: which project and which service / label value it stands for). */
export const ChartSeries = Type.Object({
  key: Type.String(),
  /** service name or label value; 'Others' for the folded rest. */
  group: Type.String(),
  project_id: Type.Union([Type.String(), Type.Null()]),
  project_name: Type.Union([Type.String(), Type.Null()]),
  /** Exact total of the series over the period. */
  total: Money,
});
export type ChartSeries = Static<typeof ChartSeries>;

/** One monthly row of the discount summary (spec 000 §3 'Billing chart month'). */
export const BillingMonth = Type.Object({
  month: Type.String({ pattern: '^\\d{4}-\\d{2}$' }),
  monthly_spend: Money,
  /** Current month: the forecast of the whole month; a completed month: equals monthly_spend. */
  forecasted_monthly_spend: Money,
  /** Percentage applied to monthly_spend ("0" for Standard), as a decimal string, e.g. "5" or "7.5". */
  discount: Type.String(),
  /** Tier Discount: threshold_spend of the tier the month reached (decimal string), null when none or not tiered. */
  reached_tier: Type.Union([Type.String(), Type.Null()]),
  forecasted_reached_tier: Type.Union([Type.String(), Type.Null()]),
  discounted_spend: Money,
  forecasted_discounted_spend: Money,
});
export type BillingMonth = Static<typeof BillingMonth>;

/** Spend Sum panel (spec 001 §2.13): selected period, month-to-date, previous month. */
export const SpendSummary = Type.Object({ custom: Money, month_to_date: Money, previous_month: Money });
export type SpendSummary = Static<typeof SpendSummary>;

/**
 * How the answer's figures were converted into its `currency` (the customer's billing_currency): per other currency
 * met in the period, what was converted and with which rate sources, and what was not (no rate within 7 days before
 * its usage day: never added to any figure, shown apart with a message naming the missing rate).
 */
export const CurrencyConversion = Type.Object({
  converted: Type.Array(
    Type.Object({
      currency: Type.String(),
      /** Original amount (2 decimals) and what it came to in the display currency. */
      original: Type.String(),
      amount: Type.String(),
      /** 'ecb', 'gcp-export', 'csv', 'demo' (a cross rate of two sources: 'demo+ecb'). */
      sources: Type.Array(Type.String()),
    }),
  ),
  unconverted: Type.Array(
    Type.Object({
      currency: Type.String(),
      amount: Type.String(),
      missing_from: Type.String({ pattern: ISO_DATE }),
      missing_to: Type.String({ pattern: ISO_DATE }),
      message: Type.String(),
    }),
  ),
  /** Some figure used a rate of the repository's demo rates file. */
  demo_rates: Type.Boolean(),
});
export type CurrencyConversion = Static<typeof CurrencyConversion>;

export const ChartPayload = Type.Object({
  /** Series in stacking order (largest first, 'Others' last). */
  keys: Type.Array(Type.String()),
  data: Type.Array(ChartBar),
  /** key -> colour (#rrggbb); a key without an entry is drawn grey. */
  colors: Type.Record(Type.String(), Type.String()),
  /** Largest bar total (number, for the y axis). */
  max_value: Type.Number(),
  summary: SpendSummary,
  series: Type.Array(ChartSeries),
  /** Months the period touches (plus the current month), for the discount summary tables. */
  months: Type.Array(BillingMonth),
  range: Type.Object({
    start_date: Type.String({ pattern: ISO_DATE }),
    end_date: Type.String({ pattern: ISO_DATE }),
    granularity: Type.Union([Type.Literal('day'), Type.Literal('month')]),
    /** e.g. '2025-12-01 - 2026-11-21', for the side note. */
    label: Type.String(),
  }),
  /** The display currency of every amount of the answer. */
  currency: Type.String(),
  /** The cost basis of every amount of the answer. */
  cost_basis: Type.Union(COST_BASES.map((b) => Type.Literal(b))),
  conversion: CurrencyConversion,
  billing_dashboard_type: Type.String(),
  /** Tier Discount: the customer's tiers by ascending threshold (exact decimal text), for the tier table; else []. */
  tiers: Type.Array(Type.Object({ threshold_spend: Type.String(), percentage: Type.String() })),
  top: Type.Integer(),
});
export type ChartPayload = Static<typeof ChartPayload>;

/** Export answer: the web writes it as cc_{provider}_billing_data_{range}.csv. Cells are strings (money exact, 2 decimals). */
export const ExportAnswer = Type.Object({
  headers: Type.Array(Type.String()),
  rows: Type.Array(Type.Array(Type.String())),
});
export type ExportAnswer = Static<typeof ExportAnswer>;

/** Admin: enqueue the billing-ingest job. `file` is relative to (and must stay inside) INGEST_DROP_DIR. */
export const IngestRequest = Type.Object({
  customer_id: Type.String({ minLength: 1 }),
  billing_account_id: Type.String({ minLength: 1 }),
  // aws-data-exports / azure-cost-exports: the account's configured provider export (workers/src/billing-exports)
  source: Type.Union([Type.Literal('focus-file'), Type.Literal('gcp-generated'), Type.Literal('bigquery'), Type.Literal('aws-data-exports'), Type.Literal('azure-cost-exports')]),
  file: Type.Optional(Type.String({ minLength: 1 })),
  from: Type.Optional(Type.String({ pattern: ISO_DATE })),
  to: Type.Optional(Type.String({ pattern: ISO_DATE })),
});
export type IngestRequest = Static<typeof IngestRequest>;

export const IngestAccepted = Type.Object({ job_id: Type.String(), queue: Type.String() });

/** Admin: load exchange rates from a rates CSV (layout of the ECB's eurofxref-hist.csv: Date,USD,GBP,…; per 1 EUR). */
export const FxRatesUpload = Type.Object({
  csv: Type.String({ minLength: 1, maxLength: 20_000_000 }),
});
export const FxRatesLoaded = Type.Object({
  /** Rates stored (source 'csv'; a rate of the same currency, date and source is replaced). */
  saved: Type.Integer(),
  currencies: Type.Array(Type.String()),
  first_date: Type.String(),
  last_date: Type.String(),
});
