import { useState } from 'react';
import { Banner, Button, ConfirmationDialog, Label } from '@primer/react';
import { hasPermission } from '@cc/shared/permissions.ts';
import type { PageProps } from '../../app/route-types.ts';
import { errorDetail } from '../../common/api-error.ts';
import { useAppSelector } from '../../app/hooks.ts';
import { Page } from '../../common/Page.tsx';
import { ListTable, type ListColumn } from '../../common/list/ListTable.tsx';
import { useSnackbar } from '../../common/Snackbar.tsx';
import { useSelectedCustomer } from '../../app/selection/useCustomerContext.ts';
import { FirstAccountOnly } from '../alerts/FirstAccountOnly.tsx';
import type { Viewer } from '@cc/shared/schemas/insights.ts';
import { useGetViewersQuery, useRemoveViewerFiltersMutation } from './viewersApi.ts';
import { AddFilterForm } from './AddFilterForm.tsx';
import styles from './ViewersPage.module.css';

const NO_PERMS: readonly string[] = [];

export const filterText = (v: Viewer) => v.project_label.map((f) => `${f.label_key}: ${f.label_value}`).join(', ');

/**
 * Billing Viewers (spec 001 §2.9): the customer's viewers with their project-label filters, adding a
 * filter and removing a viewer's filters, each behind a 'Please confirm' dialog. Needs the customer's
 * billing_viewer flag; first billing account only.
 */
export function ViewersPage({ route }: PageProps) {
  const { selected } = useSelectedCustomer();
  return (
    <FirstAccountOnly title={route.title}>
      {({ customer, billingAccountId }) =>
        customer.billing_viewer ? (
          <ViewersScreen title={route.title} customerId={customer.customer_id} billingAccountId={billingAccountId} />
        ) : (
          <Page title={route.title} subtitle={`for ${selected?.name ?? customer.customer_name} is disabled`} />
        )
      }
    </FirstAccountOnly>
  );
}

function ViewersScreen({ title, customerId, billingAccountId }: { title: string; customerId: string; billingAccountId: string }) {
  const { show } = useSnackbar();
  const perms = useAppSelector((s) => s.session.claims?.perms ?? NO_PERMS);
  const canAdd = hasPermission(perms, 'alerts_create');
  const canRemove = hasPermission(perms, 'alerts_update');
  const { currentData, isFetching, error } = useGetViewersQuery(customerId);
  const [removeFilters, { isLoading: removing }] = useRemoveViewerFiltersMutation();
  const [pending, setRemoving] = useState<Viewer | null>(null);
  const viewers = currentData ?? [];

  async function onRemove(viewer: Viewer) {
    const result = await removeFilters({ customer: customerId, user: viewer.user });
    setRemoving(null);
    if ('error' in result) show({ message: errorDetail(result.error) ?? 'Error removing filter', variant: 'error' });
    else show({ message: `Filter of ${viewer.user} removed`, variant: 'success' });
  }

  const columns: ListColumn<Viewer>[] = [
    { id: 'user', header: 'User', text: (v) => v.user },
    {
      id: 'project_label',
      header: 'Project Label Filter',
      text: filterText,
      render: (v) =>
        v.project_label.length === 0 ? (
          <span className={styles.none}>No filter: sees no billing data</span>
        ) : (
          <span className={styles.labels}>
            {v.project_label.map((f) => (
              <Label key={`${f.label_key}=${f.label_value}`} variant="accent">
                {f.label_key}: {f.label_value}
              </Label>
            ))}
          </span>
        ),
    },
  ];
  if (canRemove) {
    columns.push({
      id: 'actions',
      header: 'Actions',
      sortable: false,
      text: () => '',
      render: (v) => (
        <Button size="small" variant="danger" disabled={v.project_label.length === 0} aria-label={`Remove filter of ${v.user}`} onClick={() => setRemoving(v)}>
          Remove filter
        </Button>
      ),
    });
  }

  return (
    <Page title={title}>
      {error ? (
        <div role="alert">
          <Banner variant="critical" title="Viewers could not be loaded" description={errorDetail(error) ?? 'Please try again...'} />
        </div>
      ) : (
        <>
          <ListTable
            title="Viewers"
            subtitle="A viewer sees only the billing data of projects whose labels match their filter."
            rows={viewers}
            rowId={(v) => v.user}
            columns={columns}
            loading={isFetching && !currentData}
            emptyText="This customer has no viewers"
            filter="client"
            columnChooser
            initialSort={{ columnId: 'user', direction: 'ASC' }}
            paging="client"
          />
          {canAdd ? <AddFilterForm customerId={customerId} billingAccountId={billingAccountId} viewers={viewers} /> : null}
        </>
      )}
      {pending ? (
        <ConfirmationDialog
          title="Please confirm"
          confirmButtonContent="Submit"
          cancelButtonContent="Cancel"
          confirmButtonType="danger"
          confirmButtonLoading={removing}
          onClose={(gesture) => (gesture === 'confirm' ? void onRemove(pending) : setRemoving(null))}
        >
          Remove every filter of {pending.user} for this customer ({filterText(pending)})? The viewer then sees no billing data until a
          filter is added.
        </ConfirmationDialog>
      ) : null}
    </Page>
  );
}
