/** The spend overview's export: every column, the total row in the provider currency, and no formula a customer name could smuggle in. */
import t from 'tap';
import type { SpendRow } from '@cc/shared/schemas/operations.ts';
import { spendCsv } from './spend-table.ts';

const row = (over: Partial<SpendRow>): SpendRow => ({
  customer_id: 'acme-corp',
  customer_name: 'Acme Corp',
  currency: 'GBP',
  billing_account_id: 'A',
  month_to_date: '100.00',
  forecast: '150.00',
  last_month_same_day: '-80.00',
  change_percent: '-225.0',
  provider_month_to_date: '117.50',
  provider_forecast: '176.25',
  open_anomalies: 1,
  alerts_over_quota: 0,
  last_usage_date: '2026-11-26',
  ...over,
});

t.test('rows, then the total; formula-like names neutralised, amounts kept as numbers', async (t) => {
  const csv = spendCsv({ provider_currency: 'EUR', total: { month_to_date: '117.50', forecast: '176.25' } }, [
    row({}),
    row({ customer_id: 'evil', customer_name: '=HYPERLINK("http://evil.example","x")', provider_month_to_date: null, provider_forecast: null, change_percent: null, last_usage_date: null }),
  ]);
  t.same(csv.split('\r\n'), [
    'Customer,Currency,Month to date,Forecast,Last month at the same day,Change %,Month to date (EUR),Forecast (EUR),Open anomalies,Alerts over quota,Data until',
    'Acme Corp,GBP,100.00,150.00,-80.00,-225.0,117.50,176.25,1,0,2026-11-26',
    `"'=HYPERLINK(""http://evil.example"",""x"")",GBP,100.00,150.00,-80.00,,,,1,0,No data`,
    'Total,EUR,,,,,117.50,176.25,,,',
    '',
  ]);
});
