import { useState } from 'react';
import { FormControl, Select } from '@primer/react';
import { errorDetail } from '../../common/api-error.ts';
import { useSnackbar } from '../../common/Snackbar.tsx';
import { CommentDialog } from './CommentDialog.tsx';
import { isTicketPriority, priorityChangeable, PRIORITY_MEANINGS, statusChangeable, TICKET_PRIORITIES, TICKET_STATUSES } from '@cc/shared/tickets/rules.ts';
import { firstResponseBucket, formatTicketDate } from './ticket-dates.ts';
import { TICKET_MESSAGES } from './ticket-rules.ts';
import type { TicketDetail } from '@cc/shared/schemas/tickets.ts';
import { useGetTransitionsQuery, useSetPriorityMutation, useSetStatusMutation } from './ticketsApi.ts';
import { useTicketAccess } from './useTicketAccess.ts';
import styles from './tickets.module.css';

type Change = { field: 'status' | 'priority'; from: string; to: string };

/** Status and Priority selectors, then Created, First Response (with its bucket) and Updated. */
export function TicketSidePanel({ ticket }: { ticket: TicketDetail }) {
  const { email, transitionRole, canWrite } = useTicketAccess();
  const { show } = useSnackbar();
  const [change, setChange] = useState<Change | null>(null);
  const statusOpen = canWrite && statusChangeable(ticket.status);
  const priorityOpen = canWrite && priorityChangeable(ticket.status);
  // Closed (and Cancel) tickets load no transitions.
  const { data: allowed } = useGetTransitionsQuery({ role: transitionRole, status: ticket.status }, { skip: !statusOpen });
  const [setStatus] = useSetStatusMutation();
  const [setPriority] = useSetPriorityMutation();
  const id = ticket.id;

  async function submit(comment: string): Promise<boolean> {
    if (!change) return true;
    const note = { message: comment, author: email, date: new Date().toISOString(), previous_status: change.from, current_status: change.to };
    if (change.field === 'status') {
      const patched = await setStatus({ id, name: change.to, author: email, comment: note });
      if ('error' in patched) return fail(patched.error);
      show({ message: TICKET_MESSAGES.statusSaved, variant: 'success' });
    } else {
      const patched = await setPriority({ id, name: change.to, author: email, comment: note });
      if ('error' in patched) return fail(patched.error);
      show({ message: TICKET_MESSAGES.prioritySaved, variant: 'success' });
    }
    return true;
  }

  function fail(error: unknown): boolean {
    show({ message: errorDetail(error) ?? 'The change was not saved', variant: 'error' });
    return false;
  }

  const bucket = firstResponseBucket(ticket.creation_date, ticket.first_response_date);
  return (
    <aside className={styles.side} aria-label="Ticket details">
      <FormControl id="ticket-status" disabled={!statusOpen}>
        <FormControl.Label>Status</FormControl.Label>
        <Select block value={ticket.status} onChange={(e) => setChange({ field: 'status', from: ticket.status, to: e.target.value })}>
          {TICKET_STATUSES.map((s) => (
            <Select.Option key={s} value={s} disabled={s !== ticket.status && !(allowed ?? []).includes(s)}>
              {s}
            </Select.Option>
          ))}
        </Select>
      </FormControl>
      <FormControl id="ticket-priority" disabled={!priorityOpen}>
        <FormControl.Label>Priority</FormControl.Label>
        <Select block value={ticket.priority} onChange={(e) => setChange({ field: 'priority', from: ticket.priority, to: e.target.value })}>
          {TICKET_PRIORITIES.map((p) => (
            <Select.Option key={p} value={p}>
              {p}
            </Select.Option>
          ))}
        </Select>
        {isTicketPriority(ticket.priority) ? <FormControl.Caption>{PRIORITY_MEANINGS[ticket.priority]}</FormControl.Caption> : null}
      </FormControl>
      <dl className={styles.facts}>
        <dt>Created</dt>
        <dd>
          {formatTicketDate(ticket.creation_date)}
          {ticket.creation_by ? <div className={styles.muted}>{ticket.creation_by}</div> : null}
        </dd>
        <dt>First Response</dt>
        <dd>
          {ticket.first_response_date ? (
            <>
              <span className={styles.nowrap}>
                {formatTicketDate(ticket.first_response_date)} ({bucket})
              </span>
              {ticket.first_response_by ? <div className={styles.muted}>{ticket.first_response_by}</div> : null}
            </>
          ) : (
            <span className={styles.muted}>None yet</span>
          )}
        </dd>
        <dt>Updated</dt>
        <dd>
          {formatTicketDate(ticket.update_date)}
          {ticket.update_by ? <div className={styles.muted}>{ticket.update_by}</div> : null}
        </dd>
        {ticket.assignee ? (
          <>
            <dt>Assignee</dt>
            <dd>{ticket.assignee}</dd>
          </>
        ) : null}
      </dl>
      <span className={styles.muted}>Times are US/Pacific.</span>
      {change ? (
        <CommentDialog
          title={change.field === 'status' ? 'Change status' : 'Change priority'}
          submitLabel="Save"
          onSubmit={submit}
          onClose={() => setChange(null)}
        >
          <p>
            {change.field === 'status' ? 'Status' : 'Priority'}: {change.from} → {change.to}
          </p>
        </CommentDialog>
      ) : null}
    </aside>
  );
}
