import { useMemo, useState } from 'react';
import { Banner } from '@primer/react';
import { MESSAGES } from '@cc/shared/constants.ts';
import type { PageProps } from '../../app/route-types.ts';
import { errorDetail } from '../../common/api-error.ts';
import { Page, PageLoading, PageMessage } from '../../common/Page.tsx';
import { ListTable, type ListColumn } from '../../common/list/ListTable.tsx';
import { useBillingAccounts, useCurrentCustomer, useSelectedCustomer } from '../../app/selection/useCustomerContext.ts';
import type { CustomerDocument } from '@cc/shared/schemas/customers.ts';
import type { Anomaly } from '@cc/shared/schemas/insights.ts';
import { useGetAnomaliesQuery } from './anomaliesApi.ts';
import { AnomalyExplanationPanel } from './AnomalyExplanationPanel.tsx';
import { formatMoney, formatNumber } from '../../common/numbers.ts';
import { anomalyDate, changeSortValue, coverageText, emptyText, formatChange, notConvertedTitle } from './anomaly-format.ts';

const COLUMNS: readonly ListColumn<Anomaly>[] = [
  { id: 'project', header: 'Project', text: (a) => a.project_id },
  { id: 'service', header: 'Service', text: (a) => a.service },
  { id: 'mean', header: 'Mean Daily Spend', align: 'end', text: (a) => formatMoney(a.mean_cost, a.currency), sortValue: (a) => a.mean_cost },
  { id: 'latest', header: 'Latest Daily Spend', align: 'end', text: (a) => formatMoney(a.to_date_cost, a.currency), sortValue: (a) => a.to_date_cost },
  {
    id: 'change',
    header: 'Percentage Change',
    align: 'end',
    text: (a) => formatChange(a.delta_from_mean_cost_perc),
    sortValue: (a) => changeSortValue(a.delta_from_mean_cost_perc),
  },
];

/** A numeric field of the customer document, or its default when absent. */
function threshold(customer: CustomerDocument, field: 'minimum_anomaly_threshold' | 'minimum_value_toggled_anomaly'): number {
  const v = Number(customer[field]);
  return Number.isFinite(v) && v >= 0 ? v : 0;
}

/**
 * Anomaly Detection (spec 000 §2): the stored findings of the selected billing account for the day two
 * days before today (US/Pacific), judged with the customer's thresholds. The screen reads, never computes.
 */
export function AnomalyPage({ route }: PageProps) {
  const { customer } = useCurrentCustomer();
  const { active } = useBillingAccounts();
  // The day is fixed while the page is open, so a page left open past midnight keeps one consistent answer.
  const date = useMemo(() => anomalyDate(), []);

  if (!customer) return <PageLoading />;
  if (!active) {
    return (
      <Page title={route.title}>
        <PageMessage>{MESSAGES.missingBillingAccount}</PageMessage>
      </Page>
    );
  }
  return (
    <AnomalyTable
      title={route.title}
      customer={customer}
      billingAccountId={active}
      date={date}
      minimumAnomalyThreshold={threshold(customer, 'minimum_anomaly_threshold')}
      minimumValueToggledAnomaly={threshold(customer, 'minimum_value_toggled_anomaly')}
    />
  );
}

interface AnomalyTableProps {
  title: string;
  customer: CustomerDocument;
  billingAccountId: string;
  date: string;
  minimumAnomalyThreshold: number;
  minimumValueToggledAnomaly: number;
}

function AnomalyTable({ title, customer, billingAccountId, date, minimumAnomalyThreshold, minimumValueToggledAnomaly }: AnomalyTableProps) {
  const { selected } = useSelectedCustomer();
  // the row whose explanation is open (project, service)
  const [open, setOpen] = useState<Anomaly | null>(null);
  const { currentData, isFetching, error } = useGetAnomaliesQuery({
    customerId: customer.customer_id,
    billingAccountId,
    date,
    minimumAnomalyThreshold,
    minimumValueToggledAnomaly,
  });

  if (currentData && !currentData.anomaly_detection) {
    return <Page title={title} subtitle={`for ${selected?.name ?? customer.customer_name} is disabled`} />;
  }
  const currency = currentData?.anomalies[0]?.currency ?? customer.billing_currency;
  return (
    <Page title={title}>
      {error ? (
        <div role="alert">
          <Banner variant="critical" title="Anomalies could not be loaded" description={errorDetail(error) ?? 'Please try again...'} />
        </div>
      ) : (
        <>
          {/* Anomalies judged in another currency without a rate for their date: said, never silently missing. */}
          {currentData?.not_converted.length ? (
            <div data-testid="anomalies-not-converted">
              {currentData.not_converted.map((n) => (
                <Banner key={n.currency} variant="warning" title={notConvertedTitle(n)} description={n.message} />
              ))}
            </div>
          ) : null}
          <ListTable
            title={`${date} · Billing account ${billingAccountId}`}
            subtitle={
              <>
                Increase of at least {formatNumber(minimumAnomalyThreshold)}% and {formatMoney(minimumValueToggledAnomaly, currency)} over the mean
                daily spend{currentData ? coverageText(currentData) : null}
                {currentData?.anomalies.length ? ' Open a row to see what drove it.' : null}
              </>
            }
            rows={currentData?.anomalies ?? []}
            rowId={(a) => `${a.project_id}\u0000${a.service}`}
            columns={COLUMNS}
            loading={isFetching && !currentData}
            emptyText={emptyText(currentData, date)}
            filter="client"
            columnChooser
            initialSort={{ columnId: 'change', direction: 'DESC' }}
            paging="client"
            onOpen={setOpen}
            rowName={(a) => `Why ${a.project_id} / ${a.service} is an anomaly`}
          />
          {open ? (
            <AnomalyExplanationPanel
              query={{ customerId: customer.customer_id, billingAccountId, date, projectId: open.project_id, service: open.service }}
              onClose={() => setOpen(null)}
            />
          ) : null}
        </>
      )}
    </Page>
  );
}
