import type { SpendAnswer, SpendRow } from '@cc/shared/schemas/operations.ts';
import { toCsv } from '../../common/csv.ts';

/** The overview's columns, in order: header and the cell as text (CSV and the filter read these). */
export function spendColumns(providerCurrency: string): { id: string; header: string; cell: (r: SpendRow) => string; numeric?: boolean; csvOnly?: boolean }[] {
  return [
    { id: 'customer', header: 'Customer', cell: (r) => r.customer_name },
    // each amount on screen carries its currency sign
    { id: 'currency', header: 'Currency', cell: (r) => r.currency, csvOnly: true },
    { id: 'mtd', header: 'Month to date', cell: (r) => r.month_to_date, numeric: true },
    { id: 'forecast', header: 'Forecast', cell: (r) => r.forecast, numeric: true },
    { id: 'last', header: 'Last month at the same day', cell: (r) => r.last_month_same_day, numeric: true },
    { id: 'change', header: 'Change %', cell: (r) => r.change_percent ?? '', numeric: true },
    { id: 'provider_mtd', header: `Month to date (${providerCurrency})`, cell: (r) => r.provider_month_to_date ?? '', numeric: true },
    { id: 'provider_forecast', header: `Forecast (${providerCurrency})`, cell: (r) => r.provider_forecast ?? '', numeric: true },
    { id: 'anomalies', header: 'Open anomalies', cell: (r) => String(r.open_anomalies), numeric: true },
    { id: 'alerts', header: 'Alerts over quota', cell: (r) => String(r.alerts_over_quota), numeric: true },
    { id: 'freshness', header: 'Data until', cell: (r) => r.last_usage_date ?? 'No data' },
  ];
}

/** The export: every row (as filtered on screen), then the total row in the provider currency; formulas neutralised. */
export function spendCsv(answer: Pick<SpendAnswer, 'provider_currency' | 'total'>, rows: readonly SpendRow[]): string {
  const columns = spendColumns(answer.provider_currency);
  const total = columns.map((c) => (c.id === 'customer' ? 'Total' : c.id === 'currency' ? answer.provider_currency : c.id === 'provider_mtd' ? answer.total.month_to_date : c.id === 'provider_forecast' ? answer.total.forecast : ''));
  return toCsv(
    columns.map((c) => c.header),
    [...rows.map((r) => columns.map((c) => c.cell(r))), total],
  );
}
