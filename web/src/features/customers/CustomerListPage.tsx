import { Fragment, useMemo } from 'react';
import { Button } from '@primer/react';
import { PlusIcon } from '@primer/octicons-react';
import { useLocation } from 'wouter';
import type { PageProps } from '../../app/route-types.ts';
import { errorDetail } from '../../common/api-error.ts';
import { Page, PageMessage } from '../../common/Page.tsx';
import { ListTable, type ListColumn } from '../../common/list/ListTable.tsx';
import type { CustomerDocument } from '@cc/shared/schemas/customers.ts';
import { useListEntitiesQuery } from '../entities/entitiesApi.ts';
import { useListCustomersQuery } from './customersApi.ts';
import styles from './Customers.module.css';

/** Every customer, for admins (spec 001 §2.5); a row opens the update screen. */
export function CustomerListPage({ route }: PageProps) {
  const [, navigate] = useLocation();
  const { data, isLoading, error } = useListCustomersQuery();
  const { data: entities } = useListEntitiesQuery();

  const columns = useMemo<ListColumn<CustomerDocument>[]>(() => {
    const entityName = (c: CustomerDocument) => entities?.find((e) => e.id === c.entity)?.name ?? 'No Entity';
    return [
      { id: 'name', header: 'Name', text: (c) => c.customer_name, width: 'minmax(8rem, 1fr)' },
      { id: 'id', header: 'Id', text: (c) => c.customer_id, width: 'minmax(8rem, 1fr)' },
      { id: 'entity', header: 'Entity', text: entityName, width: 'minmax(8rem, 1fr)' },
      {
        id: 'billing_account_id',
        header: 'Billing account Id',
        text: (c) => c.billing_account_id,
        render: (c) => <AccountIds ids={c.billing_account_id} />,
        width: 'minmax(12rem, 2fr)',
      },
    ];
  }, [entities]);

  const rows = useMemo(() => [...(data ?? [])].sort((a, b) => a.customer_name.localeCompare(b.customer_name)), [data]);

  return (
    <Page title={route.title}>
      {error ? <PageMessage>{errorDetail(error) ?? 'Error loading customers'}</PageMessage> : null}
      <ListTable
        title="Customers"
        rows={rows}
        rowId={(c) => c.customer_id}
        columns={columns}
        filter="client"
        loading={isLoading}
        emptyText="No customers yet"
        onOpen={(c) => navigate(`/customermanagement/update/${encodeURIComponent(c.customer_id)}`)}
        actions={
          <Button variant="primary" leadingVisual={PlusIcon} onClick={() => navigate('/customermanagement/new')}>
            New
          </Button>
        }
      />
    </Page>
  );
}

/**
 * 'a,b' as 'a, b' with each id kept whole: a narrow column breaks between the ids, never inside one. One wrapping
 * span, since the table cell lays its children out as flex items, which would never share a line.
 */
function AccountIds({ ids }: { ids: string }) {
  const list = ids
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);
  return (
    <span>
      {list.map((id, i) => (
        <Fragment key={id}>
          {i ? ', ' : null}
          <span className={styles.accountId}>{id}</span>
        </Fragment>
      ))}
    </span>
  );
}
