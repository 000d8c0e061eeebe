/**
 * Computes chart and export answers: reads exact cells from the rollups, folds Top N, adds the Spend Sum summary
 * and the monthly discount rows (with the current month's forecast).
 */
import type { Pool } from '@cc/shared/db/pool.ts';
import { dailyTotals, labelCells, monthTotals, serviceCells, serviceCellsMonthly, type ServiceCell, type SpendFilter } from '@cc/shared/db/billing-query.ts';
import { buildChart, type SeriesCell } from '@cc/shared/billing/chart.ts';
import { buckets, monthsBetween, monthStart, splitWholeMonths, type DateRange } from '@cc/shared/billing/periods.ts';
import { forecastMonth, HISTORY_WEEKS, monthToDate } from '@cc/shared/billing/forecast.ts';
import { applyDiscount, sortedTiers } from '@cc/shared/billing/discounts.ts';
import { formatUnits, toUnits, type Units } from '@cc/shared/billing/money.ts';
import { addDays, addMonths } from '@cc/shared/time.ts';
import type { AccountContext, ChartSettings } from './context.ts';
import type { BillingMonth, ChartPayload, ExportAnswer } from '@cc/shared/schemas/billing.ts';

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

/**
 * Service cells of a range. Monthly bars of an unrestricted caller read whole months from the monthly rollup and
 * only the partial months at the edges from the daily one (a month is never in both, so rows never overlap).
 */
async function serviceRows(pool: Pool, f: SpendFilter, range: DateRange): Promise<ServiceCell[]> {
  if (range.granularity === 'day' || f.viewer !== null) {
    return serviceCells(pool, f, { from: range.start_date, to: range.end_date, granularity: range.granularity });
  }
  const split = splitWholeMonths(range.start_date, range.end_date);
  const parts = await Promise.all([
    split.months ? serviceCellsMonthly(pool, f, split.months) : Promise.resolve([]),
    ...split.days.map((d) => serviceCells(pool, f, { ...d, granularity: 'month' })),
  ]);
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return parts.flat().sort((a, b) => cmp(a.bucket, b.bucket) || cmp(a.project_id, b.project_id) || cmp(a.service, b.service));
}

async function seriesCells(pool: Pool, f: SpendFilter, s: ChartSettings, kind: ChartKind, body: ChartBody): Promise<SeriesCell[]> {
  const range = { from: s.range.start_date, to: s.range.end_date, granularity: s.range.granularity };
  if (isServiceKind(kind)) {
    const rows = await serviceRows(pool, f, s.range);
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

/** Daily totals of the current month and the 4 weeks before today (month-to-date and forecast), up to yesterday. */
async function recentDays(pool: Pool, f: SpendFilter, s: ChartSettings): Promise<Map<string, Units>> {
  const from = [monthStart(s.today), addDays(s.today, -7 * HISTORY_WEEKS)].sort()[0];
  const rows = await dailyTotals(pool, f, from, addDays(s.today, -1));
  return new Map(rows.map((r) => [r.day, toUnits(r.spend)]));
}

/**
 * The months of the discount rows: those the period touches, the previous and the current month. A custom period
 * reaching into the future adds no rows after the current month: they hold no spend and no forecast, and the
 * current month must stay the last row (the dashboard's "Current month" table).
 */
function monthsNeeded(s: ChartSettings): string[] {
  const current = s.today.slice(0, 7);
  const set = new Set(monthsBetween(s.range.start_date, s.range.end_date).filter((m) => m <= current));
  set.add(current);
  set.add(addMonths(monthStart(s.today), -1).slice(0, 7));
  return [...set].sort();
}

/** Whole-month totals of every needed month but the current one (which is month-to-date, from the daily rows). */
async function pastMonths(pool: Pool, f: SpendFilter, s: ChartSettings): Promise<Map<string, Units>> {
  const months = monthsNeeded(s).filter((m) => m !== s.today.slice(0, 7));
  const rows = await monthTotals(pool, f, { from: `${months[0]}-01`, to: `${months.at(-1)}-01` });
  return new Map(rows.map((r) => [r.month, toUnits(r.spend)]));
}

function monthRows(ctx: AccountContext, s: ChartSettings, daily: Map<string, Units>, past: Map<string, Units>): BillingMonth[] {
  const current = s.today.slice(0, 7);
  const previous = addMonths(monthStart(s.today), -1).slice(0, 7);
  const discount = { type: ctx.customer.billing_dashboard_type, set_discount: ctx.customer.billing_dashboard_set_discount, tiers: ctx.customer.tiers };
  return monthsNeeded(s)
    // the previous month is fetched for the Spend Sum; it is a row only when the period touches it
    .filter((m) => m !== previous || monthsBetween(s.range.start_date, s.range.end_date).includes(m) || m === current)
    .map((month) => {
      const spend = month === current ? monthToDate(daily, s.today) : (past.get(month) ?? 0n);
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
  const [cells, daily, past] = await Promise.all([seriesCells(pool, f, s, kind, body), recentDays(pool, f, s), pastMonths(pool, f, s)]);
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
      previous_month: formatUnits(past.get(previous) ?? 0n),
    },
    months: monthRows(ctx, s, daily, past),
    range: s.range,
    currency: ctx.customer.billing_currency,
    billing_dashboard_type: ctx.customer.billing_dashboard_type,
    tiers: ctx.customer.billing_dashboard_type === 'Tier Discount' ? sortedTiers(ctx.customer.tiers) : [],
    top: s.top,
  };
}

/** Export of the Project-with-Service detail: one row per bucket × project × service, exact spend. */
export async function serviceExport(pool: Pool, ctx: AccountContext, s: ChartSettings, body: ChartBody): Promise<ExportAnswer> {
  const f = spendFilter(ctx, s, 'service_details', body);
  const rows = await serviceRows(pool, f, s.range);
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
