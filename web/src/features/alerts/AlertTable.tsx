import { useState } from 'react';
import { Banner, Button, ConfirmationDialog } from '@primer/react';
import { TrashIcon } from '@primer/octicons-react';
import { errorDetail } from '../../common/api-error.ts';
import { ListTable, type ListColumn } from '../../common/list/ListTable.tsx';
import { useSnackbar } from '../../common/Snackbar.tsx';
import type { CustomerDocument } from '@cc/shared/schemas/customers.ts';
import { formatMoney } from '../../common/numbers.ts';
import type { Alert } from '@cc/shared/schemas/insights.ts';
import { useDeleteAlertsMutation, useGetAlertsQuery } from './alertsApi.ts';
import { GROUP_BY_LABELS } from './alert-form.ts';

const columns = (currency: string): ListColumn<Alert>[] => [
  { id: 'group_by', header: 'Group By', text: (a) => GROUP_BY_LABELS[a.group_by] ?? a.group_by },
  { id: 'label_key', header: 'Label Key', text: (a) => a.label_key },
  { id: 'label_value', header: 'Label Value', text: (a) => a.label_value },
  { id: 'quota', header: 'Quota', align: 'end', text: (a) => formatMoney(a.quota, currency), sortValue: (a) => a.quota },
];

const describe = (a: Alert) => (a.group_by === 'service' ? 'Total' : `${GROUP_BY_LABELS[a.group_by]} ${a.label_key}=${a.label_value}`);

/** The existing alerts (Group By, Label Key, Label Value, Quota) and delete of the selected ones. */
export function AlertTable({ customer, canDelete }: { customer: CustomerDocument; canDelete: boolean }) {
  const { show } = useSnackbar();
  const { currentData, isFetching, error } = useGetAlertsQuery(customer.customer_id);
  const [deleteAlerts, { isLoading: deleting }] = useDeleteAlertsMutation();
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [confirming, setConfirming] = useState(false);
  const alerts = currentData ?? [];
  // Only ids still listed count: a row deleted elsewhere cannot stay selected.
  const chosen = alerts.filter((a) => selected.has(String(a.id)));

  async function onConfirm() {
    const result = await deleteAlerts({ customer: customer.customer_id, ids: chosen.map((a) => a.id) });
    setConfirming(false);
    if ('error' in result) {
      show({ message: 'Error deleting Alert', variant: 'error' });
      return;
    }
    setSelected(new Set());
    show({ message: 'Alert(s) successfully deleted', variant: 'success' });
  }

  if (error) {
    return (
      <div role="alert">
        <Banner variant="critical" title="Alerts could not be loaded" description={errorDetail(error) ?? 'Please try again...'} />
      </div>
    );
  }
  return (
    <>
      <ListTable
        title="Alerts"
        rows={alerts}
        rowId={(a) => String(a.id)}
        rowLabel={describe}
        columns={columns(customer.billing_currency)}
        loading={isFetching && !currentData}
        emptyText="No alerts yet"
        selection={canDelete ? { selected, onChange: setSelected } : undefined}
        filter="client"
        columnChooser
        sortable
        paging="client"
        actions={
          canDelete ? (
            <Button variant="danger" leadingVisual={TrashIcon} disabled={chosen.length === 0} onClick={() => setConfirming(true)}>
              Delete{chosen.length > 0 ? ` (${chosen.length})` : ''}
            </Button>
          ) : null
        }
      />
      {confirming ? (
        <ConfirmationDialog
          title="Please confirm"
          confirmButtonContent="Submit"
          cancelButtonContent="Cancel"
          confirmButtonType="danger"
          confirmButtonLoading={deleting}
          onClose={(gesture) => (gesture === 'confirm' ? void onConfirm() : setConfirming(false))}
        >
          Delete {chosen.length === 1 ? 'this alert' : `these ${chosen.length} alerts`}?
          <ul>
            {chosen.map((a) => (
              <li key={a.id}>
                {describe(a)}: {formatMoney(a.quota, customer.billing_currency)}
              </li>
            ))}
          </ul>
        </ConfirmationDialog>
      ) : null}
    </>
  );
}
