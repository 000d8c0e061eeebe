import { useState } from 'react';
import { Banner, Button } from '@primer/react';
import { PlusIcon, SyncIcon } from '@primer/octicons-react';
import { useLocation } from 'wouter';
import { hasPermission } from '@cc/shared/permissions.ts';
import type { PageProps } from '../../app/route-types.ts';
import { errorDetail } from '../../common/api-error.ts';
import { useAppSelector } from '../../app/hooks.ts';
import { Page, PageLoading, PageMessage } from '../../common/Page.tsx';
import { useSelectedCustomer } from '../../app/selection/useCustomerContext.ts';
import { ListTable } from '../../common/list/ListTable.tsx';
import { useServerPaging } from '../../common/list/useServerPaging.ts';
import { TICKET_COLUMNS, ticketRowName } from './ticket-columns.tsx';
import type { TicketListItem } from '@cc/shared/schemas/tickets.ts';
import { useListTicketsQuery } from './ticketsApi.ts';
import { PENDING_POLL_MS } from './ticket-rules.ts';
import styles from './tickets.module.css';

const NO_PERMS: readonly string[] = [];
const NO_TICKETS: readonly TicketListItem[] = [];

/** The selected customer's tickets, most recently changed first (spec 000 §2 /supportrequest). */
export function TicketListPage({ route }: PageProps) {
  const [, navigate] = useLocation();
  const perms = useAppSelector((s) => s.session.claims?.perms ?? NO_PERMS);
  const { selected } = useSelectedCustomer();
  const [pending, setPending] = useState(false);
  // another customer picked in the header: back to its first page
  const { page, pageSize, pager } = useServerPaging(selected?.id);
  // Re-read while the ticket-sync queue has not written a ticket to Jira yet: its key appears by itself.
  const pollingInterval = pending ? PENDING_POLL_MS : 0;
  // Paged on the server, last modified first: a customer with thousands of tickets loads one page at a time.
  const { data, error, isLoading, isFetching, refetch } = useListTicketsQuery(
    { customer: selected?.id ?? '', page, pageSize },
    { skip: !selected, pollingInterval },
  );
  const tickets = data?.tickets ?? NO_TICKETS;
  const total = data?.total ?? 0;
  const paging = pager(data?.total);
  const anyPending = tickets.some((t) => t.sync_state === 'pending');
  if (anyPending !== pending) setPending(anyPending);

  return (
    <Page title={route.title} subtitle={selected ? `for ${selected.name}` : undefined}>
      <div className={styles.toolbar}>
        <Button leadingVisual={SyncIcon} onClick={() => void refetch()} loading={isFetching && !isLoading} disabled={!selected}>
          Refresh
        </Button>
        {hasPermission(perms, 'supportrequest_create') ? (
          <Button variant="primary" leadingVisual={PlusIcon} onClick={() => navigate('/supportrequest/new')}>
            New
          </Button>
        ) : null}
      </div>
      {error ? (
        <div role="alert">
          <Banner variant="critical" title="Tickets could not be loaded" description={errorDetail(error) ?? 'Please try again.'} />
        </div>
      ) : null}
      {isLoading ? (
        <PageLoading label="Loading tickets" />
      ) : !error && total === 0 ? (
        <PageMessage>No tickets yet.</PageMessage>
      ) : tickets.length > 0 ? (
        <ListTable
          title="Tickets"
          hideTitle
          rows={tickets}
          rowId={(t) => t.id}
          rowName={ticketRowName}
          columns={TICKET_COLUMNS}
          emptyText="No tickets yet."
          onOpen={(t) => navigate(`/supportrequest/view/${encodeURIComponent(t.id)}`)}
          paging={paging}
        />
      ) : null}
    </Page>
  );
}
