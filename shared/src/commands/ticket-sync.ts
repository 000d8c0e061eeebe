import { Type, type Static } from '@sinclair/typebox';

/** One write to the ticket system of record (Jira or local), or a pull of what changed there. */
export const TicketSyncCommand = Type.Object({
  op: Type.String({ minLength: 1 }),
  ticket_id: Type.Optional(Type.String({ minLength: 1 })),
});
export type TicketSyncCommand = Static<typeof TicketSyncCommand>;

export const ticketSyncJobId = (d: TicketSyncCommand) => `ticket-${d.op}-${d.ticket_id ?? 'all'}`;
