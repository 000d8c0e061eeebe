import { Banner } from '@primer/react';
import { errorDetail } from '../../common/api-error.ts';
import { formatTimestamp } from '../../common/dates.ts';
import { ListTable, type ListColumn } from '../../common/list/ListTable.tsx';
import type { CustomerDocument } from '@cc/shared/schemas/customers.ts';
import { formatMoney } from '../../common/numbers.ts';
import type { AlertNotice } from '@cc/shared/schemas/insights.ts';
import { useGetAlertNoticesQuery } from './alertsApi.ts';
import { GROUP_BY_LABELS } from './alert-form.ts';

const COLUMNS: readonly ListColumn<AlertNotice>[] = [
  { id: 'sent', header: 'Sent', text: (n) => formatTimestamp(n.created_at), sortValue: (n) => n.created_at },
  { id: 'month', header: 'Month', text: (n) => n.month },
  { id: 'group_by', header: 'Group By', text: (n) => GROUP_BY_LABELS[n.group_by] ?? n.group_by },
  { id: 'label_key', header: 'Label Key', text: (n) => n.label_key },
  { id: 'label_value', header: 'Label Value', text: (n) => n.label_value },
  { id: 'quota', header: 'Quota', align: 'end', text: (n) => formatMoney(n.quota, n.currency), sortValue: (n) => n.quota },
  { id: 'spend', header: 'Month-To-Date Spend', align: 'end', text: (n) => formatMoney(n.spend, n.currency), sortValue: (n) => n.spend },
  { id: 'recipients', header: 'Recipients', text: (n) => n.recipients.join(', ') },
];

/** The notices e-mailed so far: one per alert and billing month, the first time its quota was exceeded. */
export function AlertNotices({ customer }: { customer: CustomerDocument }) {
  const { currentData, isFetching, error } = useGetAlertNoticesQuery(customer.customer_id);
  if (error) {
    return (
      <div role="alert">
        <Banner variant="critical" title="Notices could not be loaded" description={errorDetail(error) ?? 'Please try again...'} />
      </div>
    );
  }
  return (
    <ListTable
      title="Notices sent"
      subtitle="An e-mail goes to the customer's alert list the first time an alert's quota is exceeded in a billing month."
      rows={currentData ?? []}
      rowId={(n) => String(n.id)}
      columns={COLUMNS}
      loading={isFetching && !currentData}
      emptyText="No notices sent yet"
      filter="client"
      columnChooser
      initialSort={{ columnId: 'sent', direction: 'DESC' }}
      paging="client"
    />
  );
}
