import { Label } from '@primer/react';
import { satisfactionText, satisfactionVariant, statusVariant, TICKET_MESSAGES } from './ticket-rules.ts';

/** A ticket status in its spec colour (Open red, Resolved and Closed green, Cancel grey). */
export function StatusLabel({ status }: { status: string }) {
  return <Label variant={statusVariant(status)}>{status}</Label>;
}

/**
 * A satisfaction score as "4 Satisfied" in its colour (1-2 red, 3 amber, 4-5 green); a Closed ticket
 * without a score reads 'To be provided', any other ticket shows nothing.
 */
export function SatisfactionLabel({ score, status }: { score: number | null | undefined; status: string }) {
  if (typeof score === 'number' && score > 0) {
    return (
      <Label variant={satisfactionVariant(score)}>
        {score} {satisfactionText(score)}
      </Label>
    );
  }
  return status === 'Closed' ? <span>{TICKET_MESSAGES.toBeProvided}</span> : null;
}

/** In place of the Jira key until the ticket-sync queue has created the issue. */
export function TicketKeyPending({ state }: { state: string }) {
  return state === 'failed' ? <Label variant="danger">Not synced</Label> : <Label variant="secondary">Pending</Label>;
}
