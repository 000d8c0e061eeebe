import { Button } from '@primer/react';
import { PlusIcon } from '@primer/octicons-react';
import { useLocation } from 'wouter';
import type { PageProps } from '../../app/route-types.ts';
import { errorDetail } from '../../common/api-error.ts';
import { Page, PageMessage } from '../../common/Page.tsx';
import { ListTable, type ListColumn } from '../../common/list/ListTable.tsx';
import type { Entity } from '@cc/shared/schemas/entities.ts';
import { useListEntitiesQuery } from './entitiesApi.ts';

const adminEmail = (e: Entity) => (e.admins.length > 0 ? [...e.admins].sort().join(', ') : 'No Users');

const COLUMNS: ListColumn<Entity>[] = [
  { id: 'name', header: 'Name', text: (e) => e.name, width: 'minmax(8rem, 1fr)' },
  { id: 'admins', header: 'Admin Email', text: adminEmail, width: 'minmax(12rem, 2fr)' },
];

/** Entities with their admins (spec 001 §2.6); a row opens the update screen. */
export function EntityListPage({ route }: PageProps) {
  const [, navigate] = useLocation();
  const { data, isLoading, error } = useListEntitiesQuery();
  return (
    <Page title={route.title}>
      {error ? <PageMessage>{errorDetail(error) ?? 'Error loading entities'}</PageMessage> : null}
      <ListTable
        title="Entities"
        rows={data ?? []}
        rowId={(e) => e.id}
        columns={COLUMNS}
        filter="client"
        loading={isLoading}
        emptyText="No entities yet"
        onOpen={(e) => navigate(`/entitymanagement/update/${encodeURIComponent(e.id)}`)}
        actions={
          <Button variant="primary" leadingVisual={PlusIcon} onClick={() => navigate('/entitymanagement/new')}>
            New
          </Button>
        }
      />
    </Page>
  );
}
