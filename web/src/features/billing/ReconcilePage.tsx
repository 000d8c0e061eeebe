import { useState } from 'react';
import { Banner, Link, Select } from '@primer/react';
import { useLocation } from 'wouter';
import { MESSAGES } from '@cc/shared/constants.ts';
import type { ReconcileLine } from '@cc/shared/schemas/billing-reconcile.ts';
import type { PageProps } from '../../app/route-types.ts';
import { Page, PageLoading, PageMessage } from '../../common/Page.tsx';
import { useBillingAccounts, useCurrentCustomer } from '../../app/selection/useCustomerContext.ts';
import { useGetBillingSettingsQuery } from './billingApi.ts';
import { useGetReconcileQuery } from './reconcileApi.ts';
import { ConversionNote } from './ConversionNote.tsx';
import { formatMoney } from './format.ts';
import { PROVIDER_LABELS } from './settings.ts';
import styles from './Reconcile.module.css';

const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
/** '2026-10' → 'October 2026'. */
export const monthLabel = (m: string) => `${MONTH_NAMES[Number(m.slice(5, 7)) - 1] ?? m} ${m.slice(0, 4)}`;
const providerLabel = (p: string) => (PROVIDER_LABELS as Record<string, string>)[p] ?? p;

/**
 * 'Reconcile with invoice': for the finance user, a month's spend by usage day (the dashboard's figure)
 * bridged to the provider's invoice month total, and what that invoice is made of, in the display currency.
 */
export function ReconcilePage({ route }: PageProps) {
  const { customer, isLoading } = useCurrentCustomer();
  const { active } = useBillingAccounts();
  let body;
  if (isLoading) body = <PageLoading />;
  else if (!active || !customer) body = <PageMessage>{MESSAGES.missingBillingAccount}</PageMessage>;
  else body = <Reconcile key={`${customer.customer_id}|${active}`} customer={customer.customer_id} billingAccountId={active} />;
  return <Page title={route.title}>{body}</Page>;
}

function Reconcile({ customer, billingAccountId }: { customer: string; billingAccountId: string }) {
  const [, navigate] = useLocation();
  const [month, setMonth] = useState<string | undefined>(undefined);
  const [provider, setProvider] = useState('all');
  const { data: options } = useGetBillingSettingsQuery({ customer, billingAccountId });
  const { data, error, isFetching } = useGetReconcileQuery({ customer, billingAccountId, month, provider });
  const shown = data?.month ?? month;
  const detail = error && 'data' in error ? (error.data as { detail?: string } | undefined)?.detail : undefined;
  // no usage and no invoice line yet: the select would be blank, so it says so and the page says why
  const noMonth = data?.months.length === 0;

  return (
    <>
      <p className={styles.note}>
        <Link href="/" onClick={(e: React.MouseEvent) => (e.preventDefault(), navigate('/'))}>
          Back to the billing dashboard
        </Link>
      </p>
      <div className={styles.controls}>
        <label>
          Invoice month
          <Select value={noMonth ? '' : (shown ?? '')} onChange={(e) => setMonth(e.target.value)} aria-label="Invoice month" disabled={noMonth}>
            {noMonth ? <Select.Option value="">No month with data</Select.Option> : null}
            {(data?.months ?? (shown ? [shown] : [])).map((m) => (
              <Select.Option key={m} value={m}>
                {monthLabel(m)}
              </Select.Option>
            ))}
          </Select>
        </label>
        <label>
          Provider
          <Select value={provider} onChange={(e) => setProvider(e.target.value)} aria-label="Provider">
            {['all', ...(options?.providers ?? [])].map((p) => (
              <Select.Option key={p} value={p}>
                {providerLabel(p)}
              </Select.Option>
            ))}
          </Select>
        </label>
      </div>
      {detail ? <Banner variant="critical" title="Could not reconcile" description={detail} /> : null}
      {noMonth ? (
        <p className={styles.note} data-testid="reconcile-no-month">
          No billing data has been ingested for this billing account yet, so there is no invoice month to reconcile.
        </p>
      ) : null}
      {data && !noMonth ? (
        <div aria-busy={isFetching}>
          <p className={styles.note}>
            Amounts in {data.currency}, each line converted at the rate of its usage day. The invoice month is the month the
            provider bills a line in (GCP invoice.month, FOCUS BillingPeriodStart); usage days are US/Pacific.
          </p>
          <div className={styles.tables}>
            <LineTable caption={`From usage in ${monthLabel(data.month)} to the invoice`} lines={data.bridge} currency={data.currency} />
            <LineTable caption={`Invoice ${monthLabel(data.month)}, line by line`} lines={data.invoice} currency={data.currency} />
          </div>
          <p className={styles.check} data-ok={data.unexplained === '0.00'} data-testid="reconcile-unexplained">
            Difference unexplained: {formatMoney(data.unexplained)} {data.currency}
            {data.unexplained === '0.00' ? ' (the invoice month total is fully explained)' : ''}
          </p>
          <ConversionNote conversion={data.conversion} currency={data.currency} />
        </div>
      ) : null}
    </>
  );
}

function LineTable({ caption, lines, currency }: { caption: string; lines: ReconcileLine[]; currency: string }) {
  return (
    <table className={styles.table}>
      <caption>{caption}</caption>
      <tbody>
        {lines.map((l, i) => (
          <tr key={l.key} data-total={i === lines.length - 1} data-key={l.key}>
            <th scope="row">{l.label}</th>
            <td>
              {formatMoney(l.amount)} {currency}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
