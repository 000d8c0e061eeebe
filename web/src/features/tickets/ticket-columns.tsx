import type { TicketListItem } from '@cc/shared/schemas/tickets.ts';
import type { ListColumn } from '../../common/list/ListTable.tsx';
import { formatListDate } from './ticket-dates.ts';
import { SatisfactionLabel, StatusLabel, TicketKeyPending } from './TicketLabels.tsx';

const firstResponse = (t: TicketListItem) => (t.first_response_date ? `${formatListDate(t.first_response_date)} (${t.first_response_bucket ?? ''})` : '');

/** The ticket list's columns (spec 000 §2 /supportrequest), in its order. */
export const TICKET_COLUMNS: readonly ListColumn<TicketListItem>[] = [
  { id: 'id', header: 'Id', width: 'max-content', text: (t) => t.jira_issue_key ?? '', render: (t) => t.jira_issue_key ?? <TicketKeyPending state={t.sync_state} /> },
  { id: 'summary', header: 'Summary', width: 'minmax(16rem, 1fr)', text: (t) => t.summary },
  { id: 'status', header: 'Status', width: 'max-content', text: (t) => t.status, render: (t) => <StatusLabel status={t.status} /> },
  { id: 'priority', header: 'Priority', width: 'max-content', text: (t) => t.priority },
  { id: 'update_date', header: 'Last Modified', width: 'max-content', text: (t) => formatListDate(t.update_date) },
  { id: 'first_response', header: 'First Response', width: 'max-content', text: firstResponse },
  {
    id: 'satisfaction',
    header: 'Customer Satisfaction',
    width: 'max-content',
    text: (t) => String(t.customer_satisfaction_score ?? ''),
    render: (t) => <SatisfactionLabel score={t.customer_satisfaction_score} status={t.status} />,
  },
];

/** What opening a row does, for screen readers: 'Open ticket MSP-12: Disk full'. */
export const ticketRowName = (t: TicketListItem) => `Open ticket ${t.jira_issue_key ?? '(pending)'}: ${t.summary}`;
