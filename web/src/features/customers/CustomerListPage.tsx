import { useMemo } from 'react';
import { Button } from '@primer/react';
import { PlusIcon } from '@primer/octicons-react';
import { useLocation } from 'wouter';
import type { PageProps } from '../../app/route-types.ts';
import { errorDetail } from '../../common/api-error.ts';
import { Page, PageMessage } from '../../common/Page.tsx';
import { DataList, type DataListColumn } from '../../common/DataList.tsx';
import type { CustomerDocument } from '@cc/shared/schemas/customer.ts';
import { useListEntitiesQuery } from '../entities/entitiesApi.ts';
import { useListCustomersQuery } from './customersApi.ts';

/** Every customer, for admins (spec 001 §2.5); a row opens the update screen. */
export function CustomerListPage({ route }: PageProps) {
  const [, navigate] = useLocation();
  const { data, isLoading, error } = useListCustomersQuery();
  const { data: entities } = useListEntitiesQuery();

  const columns = useMemo<DataListColumn<CustomerDocument>[]>(() => {
    const entityName = (c: CustomerDocument) => entities?.find((e) => e.id === c.entity)?.name ?? 'No Entity';
    return [
      { header: 'Name', cell: (c) => c.customer_name, text: (c) => c.customer_name },
      { header: 'Id', cell: (c) => c.customer_id, text: (c) => c.customer_id },
      { header: 'Entity', cell: entityName, text: entityName },
      { header: 'Billing account Id', cell: (c) => c.billing_account_id, text: (c) => c.billing_account_id, width: 'minmax(12rem, 2fr)' },
    ];
  }, [entities]);

  const rows = useMemo(() => [...(data ?? [])].sort((a, b) => a.customer_name.localeCompare(b.customer_name)), [data]);

  return (
    <Page title={route.title}>
      {error ? <PageMessage>{errorDetail(error) ?? 'Error loading customers'}</PageMessage> : null}
      <DataList
        title="Customers"
        rows={rows}
        rowId={(c) => c.customer_id}
        columns={columns}
        filterable
        loading={isLoading}
        empty="No customers yet"
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
