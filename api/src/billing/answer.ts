/**
 * Computes chart and export answers: reads exact cells from the rollups, folds Top N, adds the Spend Sum summary
 * and the monthly discount rows (with the current month's forecast). The answer's months are planned once
 * (months.ts) and every part of the answer reads that plan.
 */
import type { Pool } from '@cc/shared/db/pool.ts';
import { currencyParts, dailyTotals, monthTotals, type ConvertedSpend, type SpendFilter } from '@cc/shared/db/billing-query.ts';
import { buildChart } from '@cc/shared/billing/chart.ts';
import { buckets, monthStart } from '@cc/shared/billing/periods.ts';
import { forecastMonth, HISTORY_WEEKS, monthToDate } from '@cc/shared/billing/forecast.ts';
import { applyDiscount, sortedTiers } from '@cc/shared/billing/discounts.ts';
import { formatDecimal, formatUnits, plainDecimal, toUnits, type Units } from '@cc/shared/billing/money.ts';
import { addDays } from '@cc/shared/time.ts';
import { COST_BASIS_LABELS, type BillingMonth, type CostBasis, type ChartPayload, type ExportAnswer } from '@cc/shared/schemas/billing.ts';
import type { AccountContext } from './account.ts';
import type { ChartSettings } from './settings.ts';
import { planMonths, type MonthPlan } from './months.ts';
import { seriesCells, serviceExportRows, spendFilter, type ChartBody, type ChartKind } from './cells.ts';
import { conversionOf } from './conversion.ts';

/** The export column saying which basis (COST_BASIS_LABELS, the settings drawer's words) every Spend of the file is on. */
export const COST_BASIS_HEADER = 'Cost Basis';

/** Daily totals of the current month and the 4 weeks before today (month-to-date and forecast), up to yesterday. */
async function recentDays(pool: Pool, f: SpendFilter, s: ChartSettings): Promise<Map<string, Units>> {
  const from = [monthStart(s.today), addDays(s.today, -7 * HISTORY_WEEKS)].sort()[0];
  const rows = await dailyTotals(pool, f, from, addDays(s.today, -1));
  return new Map(rows.map((r) => [r.day, toUnits(r.spend)]));
}

/** Whole-month totals of the plan's past months (the current one is month-to-date, from the daily rows). */
async function pastMonths(pool: Pool, f: SpendFilter, plan: MonthPlan): Promise<Map<string, Units>> {
  const rows = await monthTotals(pool, f, { from: `${plan.past[0]}-01`, to: `${plan.past.at(-1)}-01` });
  return new Map(rows.map((r) => [r.month, toUnits(r.spend)]));
}

function monthRows(ctx: AccountContext, s: ChartSettings, plan: MonthPlan, daily: Map<string, Units>, past: Map<string, Units>): BillingMonth[] {
  const discount = { type: ctx.customer.billing_dashboard_type, set_discount: ctx.customer.billing_dashboard_set_discount, tiers: ctx.customer.tiers };
  return plan.rows.map((month) => {
    const spend = month === plan.current ? monthToDate(daily, s.today) : (past.get(month) ?? 0n);
    const forecast = month === plan.current ? forecastMonth(daily, s.today) : spend;
    const actual = applyDiscount(discount, spend);
    const forecasted = applyDiscount(discount, forecast);
    return {
      month,
      monthly_spend: formatUnits(spend),
      forecasted_monthly_spend: formatUnits(forecast),
      discount: actual.discount,
      reached_tier: actual.reached_tier,
      forecasted_reached_tier: forecasted.reached_tier,
      discounted_spend: formatUnits(actual.discounted),
      forecasted_discounted_spend: formatUnits(forecasted.discounted),
    };
  });
}

/**
 * The spend an invoice discount applies to: the billing account's whole spend (of the chart's provider), not what
 * is left after the chart's service or project filter (docs/decisions-billing.md). A viewer's restriction stays.
 */
const invoiceFilter = (f: SpendFilter): SpendFilter => ({ ...f, services: [], projects: [] });
const isFiltered = (f: SpendFilter) => f.services.length > 0 || f.projects.length > 0;

export async function chartAnswer(pool: Pool, ctx: AccountContext, s: ChartSettings, kind: ChartKind, body: ChartBody): Promise<ChartPayload> {
  const f = spendFilter(ctx, s, kind, body);
  const invoice = invoiceFilter(f);
  const plan = planMonths(s.range, s.today);
  const [cells, daily, past, parts, invoiceDaily, invoicePast] = await Promise.all([
    seriesCells(pool, f, s, kind, body),
    recentDays(pool, f, s),
    pastMonths(pool, f, plan),
    currencyParts(pool, f, s.range.start_date, s.range.end_date),
    isFiltered(f) ? recentDays(pool, invoice, s) : null,
    isFiltered(f) ? pastMonths(pool, invoice, plan) : null,
  ]);
  const chart = buildChart(cells, buckets(s.range), s.top);
  return {
    keys: chart.keys,
    data: chart.data,
    colors: chart.colors,
    max_value: chart.max_value,
    series: chart.series,
    summary: {
      custom: formatUnits(chart.total),
      month_to_date: formatUnits(monthToDate(daily, s.today)),
      previous_month: formatUnits(past.get(plan.previous) ?? 0n),
    },
    months: monthRows(ctx, s, plan, invoiceDaily ?? daily, invoicePast ?? past),
    range: s.range,
    currency: ctx.customer.billing_currency,
    cost_basis: s.basis,
    conversion: conversionOf(parts, ctx.customer.billing_currency),
    billing_dashboard_type: ctx.customer.billing_dashboard_type,
    tiers: ctx.customer.billing_dashboard_type === 'Tier Discount' ? sortedTiers(ctx.customer.tiers) : [],
    top: s.top,
  };
}

/** The columns every export ends with after its own: Spend, Currency, the row's conversion and its Cost Basis. */
export const CONVERSION_HEADERS = ['Spend', 'Currency', 'Original Spend', 'Original Currency', 'Rate', 'Rate Date', 'Rate Source', COST_BASIS_HEADER];

/** A row's CONVERSION_HEADERS cells; Spend and Rate blank when no rate lies within 7 days. */
export function conversionCells(r: ConvertedSpend, currency: string, basis: CostBasis): string[] {
  return [
    r.spend === null ? '' : formatDecimal(r.spend),
    currency,
    formatDecimal(r.original),
    r.currency,
    r.rate === null ? '' : plainDecimal(r.rate),
    r.rate_date ?? '',
    r.source ?? '',
    COST_BASIS_LABELS[basis],
  ];
}

/**
 * Export of the Project-with-Service detail: one row per bucket × project × service × original currency × rate,
 * with the original spend and currency, the rate with its fixing date and source, and the spend in the display
 * currency (blank, and in no total, when no rate lies within 7 days of the usage day).
 */
export async function serviceExport(pool: Pool, ctx: AccountContext, s: ChartSettings, body: ChartBody): Promise<ExportAnswer> {
  const f = spendFilter(ctx, s, 'service_details', body);
  const rows = await serviceExportRows(pool, f, s.range);
  const currency = ctx.customer.billing_currency;
  return {
    // the spec's six columns first, then the conversion of the row
    headers: ['Date', 'Project ID', 'Project Name', 'Service', ...CONVERSION_HEADERS],
    rows: rows.map((r) => [
      r.bucket,
      r.project_id,
      r.project_name,
      r.service,
      ...conversionCells(r, currency, s.basis),
    ]),
  };
}

/**
 * What identifies a chart answer in the cache: every input of `chartAnswer`, lists sorted. The customer's discount
 * settings and currency are part of the answer, so an edited customer never gets stale months.
 */
export function chartCacheSettings(ctx: AccountContext, s: ChartSettings, kind: ChartKind, body: ChartBody) {
  return {
    kind,
    provider: s.provider,
    range: s.range,
    today: s.today,
    top: s.top,
    // billed and amortised answers differ for the same settings
    basis: s.basis,
    body: { ...body, services: [...(body.services ?? [])].sort(), projects: [...(body.projects ?? [])].sort() },
    viewer: ctx.viewer,
    customer: ctx.customer,
  };
}
