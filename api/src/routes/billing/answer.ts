/**
 * Computes chart and export answers: reads exact cells from the rollups, folds Top N, adds the Spend Sum summary
 * and the monthly discount rows (with the current month's forecast).
 */
import type { Pool } from '@cc/shared/db/pool.ts';
import { dailyTotals, labelCells, serviceCells, type SpendFilter } from '@cc/shared/db/billing-query.ts';
import { buildChart, type SeriesCell } from '@cc/shared/billing/chart.ts';
import { buckets, monthsBetween, monthStart } from '@cc/shared/billing/periods.ts';
import { forecastMonth, HISTORY_WEEKS, monthToDate } from '@cc/shared/billing/forecast.ts';
import { applyDiscount } from '@cc/shared/billing/discounts.ts';
import { formatUnits, toUnits, type Units } from '@cc/shared/billing/money.ts';
import { addDays, addMonths } from '@cc/shared/time.ts';
import type { AccountContext, ChartSettings } from './context.ts';
import type { BillingMonth, ChartPayload, ExportAnswer } from '../../schemas/billing.ts';

export type ChartKind = 'by_service' | 'service_details' | 'project_labels' | 'project_label_details' | 'resource_labels' | 'resource_label_details';

/** Series name of spend that does not carry the chosen label key. */
export const NO_LABEL = '(no label)';
export const NO_SERVICE = '(no service)';

export interface ChartBody {
  services?: string[];
  projects?: string[];
  /** The label key of the label kinds. */
  label?: string;
}

const isServiceKind = (k: ChartKind) => k === 'by_service' || k === 'service_details';
const labelKind = (k: ChartKind): 'project' | 'resource' => (k.startsWith('project') ? 'project' : 'resource');

function spendFilter(ctx: AccountContext, s: ChartSettings, kind: ChartKind, body: ChartBody): SpendFilter {
  return {
    customerId: ctx.customerId,
    billingAccountId: ctx.billingAccountId,
    provider: s.provider === 'all' ? null : s.provider,
    services: isServiceKind(kind) ? (body.services ?? []) : [],
    projects: body.projects ?? [],
    viewer: ctx.viewer,
  };
}

async function seriesCells(pool: Pool, f: SpendFilter, s: ChartSettings, kind: ChartKind, body: ChartBody): Promise<SeriesCell[]> {
  const range = { from: s.range.start_date, to: s.range.end_date, granularity: s.range.granularity };
  if (isServiceKind(kind)) {
    const rows = await serviceCells(pool, f, range);
    return rows.map((r) => {
      const service = r.service || NO_SERVICE;
      return {
        bucket: r.bucket,
        key: kind === 'by_service' ? service : `${r.project_id} / ${service}`,
        amount: toUnits(r.spend),
        group: service,
        project_id: kind === 'by_service' ? null : r.project_id,
        project_name: kind === 'by_service' ? null : r.project_name,
      };
    });
  }
  const detail = kind.endsWith('_details');
  const rows = await labelCells(pool, f, range, { kind: labelKind(kind), key: body.label ?? '' });
  return rows.map((r) => {
    const value = r.label_value ?? NO_LABEL;
    return {
      bucket: r.bucket,
      key: detail ? `${value} / ${r.project_id}` : value,
      amount: toUnits(r.spend),
      group: value,
      project_id: detail ? r.project_id : null,
      project_name: detail ? r.project_name : null,
    };
  });
}

/** Daily totals from the earliest day the summary, months and forecast need, up to yesterday. */
async function dailyHistory(pool: Pool, f: SpendFilter, s: ChartSettings): Promise<Map<string, Units>> {
  const yesterday = addDays(s.today, -1);
  const from = [monthStart(s.range.start_date), addMonths(monthStart(s.today), -1), addDays(s.today, -7 * HISTORY_WEEKS)].sort()[0];
  const to = s.range.end_date > yesterday ? s.range.end_date : yesterday;
  const rows = await dailyTotals(pool, f, from, to);
  return new Map(rows.map((r) => [r.day, toUnits(r.spend)]));
}

function sumMonth(daily: Map<string, Units>, month: string): Units {
  let s = 0n;
  for (const [day, v] of daily) if (day.startsWith(month)) s += v;
  return s;
}

function monthRows(ctx: AccountContext, s: ChartSettings, daily: Map<string, Units>): BillingMonth[] {
  const current = s.today.slice(0, 7);
  const months = new Set(monthsBetween(s.range.start_date, s.range.end_date));
  months.add(current);
  const discount = { type: ctx.customer.billing_dashboard_type, set_discount: ctx.customer.billing_dashboard_set_discount, tiers: ctx.customer.tiers };
  return [...months].sort().map((month) => {
    const spend = month === current ? monthToDate(daily, s.today) : sumMonth(daily, month);
    const forecast = month === current ? forecastMonth(daily, s.today) : spend;
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

export async function chartAnswer(pool: Pool, ctx: AccountContext, s: ChartSettings, kind: ChartKind, body: ChartBody): Promise<ChartPayload> {
  const f = spendFilter(ctx, s, kind, body);
  const [cells, daily] = await Promise.all([seriesCells(pool, f, s, kind, body), dailyHistory(pool, f, s)]);
  const chart = buildChart(cells, buckets(s.range), s.top);
  const previous = addMonths(monthStart(s.today), -1).slice(0, 7);
  return {
    keys: chart.keys,
    data: chart.data,
    colors: chart.colors,
    max_value: chart.max_value,
    series: chart.series,
    summary: {
      custom: formatUnits(chart.total),
      month_to_date: formatUnits(monthToDate(daily, s.today)),
      previous_month: formatUnits(sumMonth(daily, previous)),
    },
    months: monthRows(ctx, s, daily),
    range: s.range,
    currency: ctx.customer.billing_currency,
    billing_dashboard_type: ctx.customer.billing_dashboard_type,
    top: s.top,
  };
}

/** Export of the Project-with-Service detail: one row per bucket × project × service, exact spend. */
export async function serviceExport(pool: Pool, ctx: AccountContext, s: ChartSettings, body: ChartBody): Promise<ExportAnswer> {
  const f = spendFilter(ctx, s, 'service_details', body);
  const rows = await serviceCells(pool, f, { from: s.range.start_date, to: s.range.end_date, granularity: s.range.granularity });
  const currency = ctx.customer.billing_currency;
  return {
    headers: ['Date', 'Project ID', 'Project Name', 'Service', 'Spend', 'Currency'],
    rows: rows.map((r) => [r.bucket, r.project_id, r.project_name, r.service, formatUnits(toUnits(r.spend)), currency]),
  };
}

/** Export of the Project Labels with Project detail: one row per bucket × project × label value (blank: unlabelled). */
export async function projectLabelExport(pool: Pool, ctx: AccountContext, s: ChartSettings, body: ChartBody): Promise<ExportAnswer> {
  const f = spendFilter(ctx, s, 'project_label_details', body);
  const rows = await labelCells(pool, f, { from: s.range.start_date, to: s.range.end_date, granularity: s.range.granularity }, { kind: 'project', key: body.label ?? '' });
  const currency = ctx.customer.billing_currency;
  return {
    headers: ['Date', 'Project Label', 'Label Value', 'Project ID', 'Project Name', 'Spend', 'Currency'],
    rows: rows.map((r) => [r.bucket, body.label ?? '', r.label_value ?? '', r.project_id, r.project_name, formatUnits(toUnits(r.spend)), currency]),
  };
}
