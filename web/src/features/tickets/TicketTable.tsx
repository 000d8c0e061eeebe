import type { KeyboardEvent } from 'react';
import { clsx } from 'clsx';
import { formatListDate } from './ticket-format.ts';
import { SatisfactionLabel, StatusLabel } from './TicketLabels.tsx';
import type { Ticket } from './ticketsApi.ts';
import styles from './tickets.module.css';

const COLUMNS = ['Id', 'Summary', 'Status', 'Priority', 'Last Modified', 'First Response', 'Customer Satisfaction'];

export interface TicketTableProps {
  tickets: readonly Ticket[];
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
              key={t.jira_issue_key}
              className={clsx(styles.row)}
              tabIndex={0}
              aria-label={`Open ticket ${t.jira_issue_key}: ${t.summary}`}
              onClick={() => onOpen(t.jira_issue_key)}
              onKeyDown={(e) => onKeyDown(e, t.jira_issue_key)}
            >
              <td>{t.jira_issue_key}</td>
              <td className={styles.summary}>{t.summary}</td>
              <td>
                <StatusLabel status={t.status} />
              </td>
              <td>{t.priority}</td>
              <td>{formatListDate(t.update_date ?? t.creation_date)}</td>
              <td>{formatListDate(t.first_response_date)}</td>
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
