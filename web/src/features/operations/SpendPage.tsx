import { useState } from 'react';
import { Banner, Button } from '@primer/react';
import { DownloadIcon } from '@primer/octicons-react';
import { useLocation } from 'wouter';
import type { SpendRow } from '@cc/shared/schemas/operations.ts';
import { addDays } from '@cc/shared/time.ts';
import type { PageProps } from '../../app/route-types.ts';
import { useSelectedCustomer } from '../../app/selection/useCustomerContext.ts';
import { Page } from '../../common/Page.tsx';
import { ListTable, type ListColumn } from '../../common/list/ListTable.tsx';
import { errorDetail } from '../../common/api-error.ts';
import { filterRows } from '../../common/list/list-table.ts';
import { formatMoney } from '../../common/numbers.ts';
import { downloadText } from '../billing/format.ts';
import { useGetSpendQuery } from './operationsApi.ts';
import { spendColumns, spendCsv } from './spend-table.ts';
import styles from './operations.module.css';

const money = (v: string | null, currency: string) => (v === null ? '–' : formatMoney(Number(v), currency));

/**
 * Every customer's spend (admins): its own dashboard's month to date and forecast in its currency, last month at the
 * same day, and the provider-currency column and total; a row opens that customer's billing dashboard.
 */
export function SpendPage({ route }: PageProps) {
  const [, navigate] = useLocation();
  const { select } = useSelectedCustomer();
  const { currentData, isFetching, error } = useGetSpendQuery();
  const [query, setQuery] = useState('');
  const provider = currentData?.provider_currency ?? 'EUR';
  const money2 = (r: SpendRow, v: string) => money(v, r.currency);
  const columns: ListColumn<SpendRow>[] = spendColumns(provider)
    .filter((c) => !c.csvOnly)
    .map((c) => ({
    id: c.id,
    header: c.header,
    text: c.cell,
    align: c.numeric ? 'end' : 'start',
    // narrow enough for every column to fit 1440 px: long headers wrap
    width: c.numeric ? 'minmax(6rem, 1fr)' : undefined,
    sortValue: c.numeric ? (r: SpendRow) => (c.cell(r) === '' ? null : Number(c.cell(r))) : undefined,
    render:
      c.id === 'mtd' || c.id === 'forecast' || c.id === 'last'
        ? (r: SpendRow) => money2(r, c.cell(r))
        : c.id === 'provider_mtd' || c.id === 'provider_forecast'
          ? (r: SpendRow) => money(c.cell(r) || null, provider)
          : c.id === 'change'
            ? (r: SpendRow) => (r.change_percent === null ? '–' : `${r.change_percent}%`)
            : undefined,
  }));
  const rows = currentData?.rows ?? [];
  const shown = filterRows(rows, query, (r) => columns.map((c) => c.text(r)).join(' '));

  return (
    <Page title={route.title} subtitle={currentData ? `Month to date up to yesterday (${addDays(currentData.today, -1)}, US/Pacific); click a customer to open its billing dashboard` : undefined}>
      {error ? (
        <div role="alert">
          <Banner variant="critical" title="The spend overview could not be loaded" description={errorDetail(error) ?? 'Please try again...'} />
        </div>
      ) : (
        <>
          <dl className={styles.total} aria-label={`Total in ${provider}`}>
            <div>
              <dt>{`Total month to date (${provider})`}</dt>
              <dd>{currentData ? money(currentData.total.month_to_date, provider) : '…'}</dd>
            </div>
            <div>
              <dt>{`Total forecast (${provider})`}</dt>
              <dd>{currentData ? money(currentData.total.forecast, provider) : '…'}</dd>
            </div>
          </dl>
          {currentData && currentData.unconverted.length > 0 ? (
            <Banner
              variant="warning"
              title={`Not in the ${provider} total`}
              description={`No rate into ${provider} for a day of: ${currentData.unconverted.join(', ')}`}
            />
          ) : null}
          <ListTable
            title="Customers"
            hideTitle
            rows={shown}
            rowId={(r) => r.customer_id}
            rowName={(r) => `Open the billing dashboard of ${r.customer_name}`}
            columns={columns}
            loading={isFetching && !currentData}
            emptyText="No customers"
            filter={{ value: query, onChange: setQuery }}
            initialSort={{ columnId: 'provider_mtd', direction: 'DESC' }}
            paging="client"
            onOpen={(r) => {
              select(r.customer_id);
              navigate('/');
            }}
            actions={
              <Button leadingVisual={DownloadIcon} disabled={!currentData} onClick={() => currentData && downloadText(`cc_all_customers_spend_${currentData.today}.csv`, spendCsv(currentData, shown))}>
                Export
              </Button>
            }
          />
        </>
      )}
    </Page>
  );
}
