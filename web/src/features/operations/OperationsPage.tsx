import { useState } from 'react';
import { Banner, Button, CounterLabel, FormControl, Select } from '@primer/react';
import { EyeIcon, GraphIcon, SyncIcon } from '@primer/octicons-react';
import { useLocation } from 'wouter';
import { INBOX_KINDS, INBOX_KIND_LABELS, type InboxItem, type InboxKind } from '@cc/shared/schemas/operations.ts';
import type { PageProps } from '../../app/route-types.ts';
import { useSelectedCustomer } from '../../app/selection/useCustomerContext.ts';
import { Page } from '../../common/Page.tsx';
import { ListTable, type ListColumn } from '../../common/list/ListTable.tsx';
import { errorDetail } from '../../common/api-error.ts';
import { formatListTimestamp } from '../../common/dates.ts';
import { useSnackbar } from '../../common/Snackbar.tsx';
import { InboxActions } from './InboxActions.tsx';
import { useGetInboxQuery, useMarkAnomaliesSeenMutation } from './operationsApi.ts';
import styles from './operations.module.css';

const PAGE_SIZE = 50;
const URGENCY = { 1: 'Act now', 2: 'Decide', 3: 'Look' } as const;

/**
 * The operations inbox (admins): what needs a person across every customer, most urgent and newest first, with
 * the decisions of project requests and license orders in place and a link to each item's screen.
 */
export function OperationsPage({ route }: PageProps) {
  const [, navigate] = useLocation();
  const { customers, select } = useSelectedCustomer();
  const { show } = useSnackbar();
  const [kind, setKind] = useState<InboxKind | ''>('');
  const [customer, setCustomer] = useState('');
  const [pageIndex, setPageIndex] = useState(0);
  const args = { offset: pageIndex * PAGE_SIZE, limit: PAGE_SIZE, ...(kind ? { kind } : {}), ...(customer ? { for_customer: customer } : {}) };
  const { currentData, isFetching, error, refetch } = useGetInboxQuery(args, { pollingInterval: 60_000 });
  const [markSeen, marking] = useMarkAnomaliesSeenMutation();
  const counts = currentData?.counts ?? {};
  const all = INBOX_KINDS.reduce((s, k) => s + (counts[k] ?? 0), 0);

  const openItem = (item: InboxItem) => {
    if (item.customer_id) select(item.customer_id);
    if (item.link) navigate(item.link);
  };
  const columns: ListColumn<InboxItem>[] = [
    { id: 'urgency', header: 'Urgency', text: (i) => URGENCY[i.urgency as 1 | 2 | 3], render: (i) => <span className={i.urgency === 1 ? styles.urgent : undefined}>{URGENCY[i.urgency as 1 | 2 | 3]}</span> },
    { id: 'customer', header: 'Customer', text: (i) => i.customer_name ?? 'All customers' },
    {
      id: 'what',
      header: 'What',
      width: 'minmax(16rem, 3fr)',
      text: (i) => `${i.what} ${i.detail ?? ''}`,
      render: (i) => (
        <span className={styles.what}>
          <span>{i.what}</span>
          {i.detail && i.detail !== i.what ? <span className={styles.detail}>{i.detail}</span> : null}
        </span>
      ),
    },
    { id: 'since', header: 'Since', text: (i) => formatListTimestamp(i.since) },
    { id: 'actions', header: 'Action', text: () => '', render: (i) => <InboxActions item={i} onDecided={() => void refetch()} onOpen={openItem} /> },
  ];

  const changeKind = (k: string) => {
    setKind(k as InboxKind | '');
    setPageIndex(0);
  };

  return (
    <Page title={route.title} subtitle="What needs a person now, across every customer">
      <div className={styles.filters}>
        <FormControl>
          <FormControl.Label>Kind</FormControl.Label>
          <Select value={kind} onChange={(e) => changeKind(e.target.value)}>
            <Select.Option value="">{`All kinds (${all})`}</Select.Option>
            {INBOX_KINDS.map((k) => (
              <Select.Option key={k} value={k}>{`${INBOX_KIND_LABELS[k]} (${counts[k] ?? 0})`}</Select.Option>
            ))}
          </Select>
        </FormControl>
        <FormControl>
          <FormControl.Label>Customer</FormControl.Label>
          <Select
            value={customer}
            onChange={(e) => {
              setCustomer(e.target.value);
              setPageIndex(0);
            }}
          >
            <Select.Option value="">All customers</Select.Option>
            {customers.map((c) => (
              <Select.Option key={c.id} value={c.id}>
                {c.name}
              </Select.Option>
            ))}
          </Select>
        </FormControl>
        <Button leadingVisual={SyncIcon} onClick={() => void refetch()} disabled={isFetching}>
          Refresh
        </Button>
        <Button leadingVisual={GraphIcon} onClick={() => navigate('/operations/spend')}>
          All customers’ spend
        </Button>
        {(counts.anomalies_found ?? 0) > 0 ? (
          <Button
            leadingVisual={EyeIcon}
            loading={marking.isLoading}
            onClick={async () => {
              const r = await markSeen();
              if (!('error' in r)) show({ message: 'Anomalies marked as seen', variant: 'success' });
            }}
          >
            Mark anomalies seen
          </Button>
        ) : null}
      </div>
      <ul className={styles.counts} aria-label="Open items per kind">
        {INBOX_KINDS.filter((k) => (counts[k] ?? 0) > 0).map((k) => (
          <li key={k}>
            <Button size="small" variant="invisible" onClick={() => changeKind(k)} aria-pressed={kind === k}>
              {INBOX_KIND_LABELS[k]} <CounterLabel>{counts[k]}</CounterLabel>
            </Button>
          </li>
        ))}
      </ul>
      {error ? (
        <div role="alert">
          <Banner variant="critical" title="The inbox could not be loaded" description={errorDetail(error) ?? 'Please try again...'} />
        </div>
      ) : (
        <ListTable
          title="Inbox"
          hideTitle
          rows={currentData?.items ?? []}
          rowId={(i) => i.id}
          columns={columns}
          loading={isFetching && !currentData}
          emptyText="Nothing needs a person now"
          paging={{ pageIndex, pageSize: PAGE_SIZE, total: currentData?.total ?? 0, onPage: setPageIndex }}
        />
      )}
    </Page>
  );
}
