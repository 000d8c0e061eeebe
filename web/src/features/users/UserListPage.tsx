import { useEffect, useMemo, useState } from 'react';
import { Button, Label } from '@primer/react';
import { PlusIcon, TrashIcon } from '@primer/octicons-react';
import { useLocation } from 'wouter';
import { ROLE_LABELS } from '@cc/shared/permissions.ts';
import type { PageProps } from '../../app/route-types.ts';
import { errorDetail } from '../../common/api-error.ts';
import { Page } from '../../common/Page.tsx';
import { ListTable, type ListColumn } from '../../common/list/ListTable.tsx';
import { ConfirmDialog } from '../../common/ConfirmDialog.tsx';
import { MessageDialog } from '../../common/MessageDialog.tsx';
import { useSnackbar } from '../../common/Snackbar.tsx';
import type { AdminUser } from '@cc/shared/schemas/users.ts';
import { USER_PAGE_SIZE, useDeleteUsersMutation, useListUsersQuery } from './usersApi.ts';
import { useUserEvents } from './useUserEvents.ts';

/** Spec 001 §2.7, §8: a user without a role entry reads 'user not found'. */
export const roleText = (u: AdminUser) => (u.role ? ROLE_LABELS[u.role] : 'user not found');
const entitiesText = (u: AdminUser) => u.entities.join(', ');
const customersText = (u: AdminUser) => u.customers.map((c) => c.name).join(', ');

const COLUMNS: ListColumn<AdminUser>[] = [
  {
    id: 'email',
    header: 'Email',
    text: (u) => u.email,
    // an invited user has not set a password yet; an unverified one has not opened the activation e-mail
    render: (u) =>
      u.invitation_pending ? (
        <span>
          {u.email} <Label variant="attention">Invited</Label>
        </span>
      ) : !u.email_verified ? (
        <span>
          {u.email} <Label variant="secondary">Unverified</Label>
        </span>
      ) : (
        u.email
      ),
    width: 'minmax(14rem, 2fr)',
  },
  { id: 'role', header: 'Role', text: roleText, width: 'minmax(8rem, 1fr)' },
  { id: 'entities', header: 'Entities', text: entitiesText, width: 'minmax(8rem, 1fr)' },
  { id: 'customers', header: 'Customer Access', text: customersText, width: 'minmax(12rem, 2fr)' },
];

/** Debounces the filter box so each keystroke does not query the api. */
function useDebounced(value: string, ms = 300): string {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const t = window.setTimeout(() => setDebounced(value), ms);
    return () => window.clearTimeout(t);
  }, [value, ms]);
  return debounced;
}

/** Users sorted by e-mail, 100 a page, filter, selection and bulk delete; live (spec 001 §2.7). */
export function UserListPage({ route }: PageProps) {
  useUserEvents();
  const [, navigate] = useLocation();
  const { show } = useSnackbar();
  const [filter, setFilter] = useState('');
  const q = useDebounced(filter.trim());
  const [pageIndex, setPageIndex] = useState(0);
  const { data, isLoading, isFetching, error } = useListUsersQuery({ page: pageIndex, page_size: USER_PAGE_SIZE, q: q || undefined });
  const [deleteUsers, { isLoading: deleting }] = useDeleteUsersMutation();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [confirming, setConfirming] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => setPageIndex(0), [q]);
  const rows = data?.users ?? [];
  const chosen = useMemo(() => [...selected].sort(), [selected]);

  async function remove() {
    const result = await deleteUsers(chosen);
    setConfirming(false);
    if ('error' in result) {
      setFailure(errorDetail(result.error) ?? 'Error deleting users');
      return;
    }
    setSelected(new Set());
    show({ message: `${result.data.deleted} user(s) deleted with success`, variant: 'success' });
  }

  return (
    <Page title={route.title}>
      <ListTable
        title="Users"
        rows={rows}
        rowId={(u) => u.id}
        columns={COLUMNS}
        filter={{ value: filter, onChange: setFilter }}
        paging={{ pageIndex, pageSize: USER_PAGE_SIZE, total: data?.total ?? 0, onPage: setPageIndex }}
        selection={{ selected, onChange: setSelected }}
        loading={isLoading || isFetching}
        emptyText={error ? (errorDetail(error) ?? 'Error loading users') : 'No users'}
        onOpen={(u) => navigate(`/usermanagement/update/${encodeURIComponent(u.id)}`)}
        actions={
          <>
            <Button variant="danger" leadingVisual={TrashIcon} disabled={selected.size === 0} onClick={() => setConfirming(true)}>
              Delete
            </Button>
            <Button variant="primary" leadingVisual={PlusIcon} onClick={() => navigate('/usermanagement/new')}>
              New
            </Button>
          </>
        }
      />
      {confirming ? (
        <ConfirmDialog busy={deleting} onSubmit={() => void remove()} onCancel={() => setConfirming(false)}>
          <p style={{ marginTop: 0 }}>Delete the following {chosen.length} user(s)? They lose access to every customer.</p>
          <ul>
            {chosen.map((id) => (
              <li key={id}>{id}</li>
            ))}
          </ul>
        </ConfirmDialog>
      ) : null}
      {failure ? (
        <MessageDialog title="Error" onClose={() => setFailure(null)}>
          {failure}
        </MessageDialog>
      ) : null}
    </Page>
  );
}
