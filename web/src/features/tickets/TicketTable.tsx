import type { KeyboardEvent } from 'react';
import { formatListDate } from './ticket-dates.ts';
import { SatisfactionLabel, StatusLabel, TicketKeyPending } from './TicketLabels.tsx';
import type { TicketListItem } from '@cc/shared/schemas/tickets.ts';
import styles from './tickets.module.css';

const COLUMNS = ['Id', 'Summary', 'Status', 'Priority', 'Last Modified', 'First Response', 'Customer Satisfaction'];

export interface TicketTableProps {
  tickets: readonly TicketListItem[];
  /** A row was clicked, or Enter / Space pressed on it. */
  onOpen: (id: string) => void;
}

/** The ticket list's table: each row opens its ticket, by mouse or keyboard. */
export function TicketTable({ tickets, onOpen }: TicketTableProps) {
  function onKeyDown(event: KeyboardEvent, id: string) {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onOpen(id);
    }
  }
  return (
    <div className={styles.tableWrap}>
      <table className={styles.table} aria-label="Tickets">
        <thead>
          <tr>
            {COLUMNS.map((c) => (
              <th key={c} scope="col">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {tickets.map((t) => (
            <tr
              key={t.id}
              className={styles.row}
              tabIndex={0}
              aria-label={`Open ticket ${t.jira_issue_key ?? '(pending)'}: ${t.summary}`}
              onClick={() => onOpen(t.id)}
              onKeyDown={(e) => onKeyDown(e, t.id)}
            >
              <td>{t.jira_issue_key ?? <TicketKeyPending state={t.sync_state} />}</td>
              <td className={styles.summary}>{t.summary}</td>
              <td>
                <StatusLabel status={t.status} />
              </td>
              <td>{t.priority}</td>
              <td>{formatListDate(t.update_date)}</td>
              <td>
                {t.first_response_date ? `${formatListDate(t.first_response_date)} (${t.first_response_bucket ?? ''})` : ''}
              </td>
              <td>
                <SatisfactionLabel score={t.customer_satisfaction_score} status={t.status} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
