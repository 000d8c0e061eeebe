import { Type, type Static } from '@sinclair/typebox';

/**
 * One command of the ticket-sync queue. Every write op makes the system of record (Jira or the local ticket
 * system) catch up with the local ticket: create the issue when missing, then push waiting comments,
 * attachments and field changes. `op` and `ref` only give the job its id, so each local change gets its own job
 * while a retried or repeated one is the same job (BullMQ keeps one job per id).
 * - create: ticket_id; a retried create never makes a second issue (the job id, then a label lookup in Jira).
 * - comment / attachment / attachment-delete: ticket_id and ref = the comment or attachment id.
 * - push: ticket_id and ref = the ticket's local_version after the change (status, priority, satisfaction).
 * - pull: issues updated since the last pull, plus writes whose enqueue was lost (scheduled every 5 minutes).
 * - pull-issue: jira_key (a webhook said it changed); ref = the webhook delivery id.
 */
export const TICKET_SYNC_OPS = ['create', 'comment', 'push', 'attachment', 'attachment-delete', 'pull', 'pull-issue'] as const;

const ID = '^[A-Za-z0-9._-]{1,100}$';

export const TicketSyncCommand = Type.Object({
  op: Type.Union(TICKET_SYNC_OPS.map((o) => Type.Literal(o))),
  ticket_id: Type.Optional(Type.String({ pattern: '^[0-9a-fA-F-]{36}$' })),
  ref: Type.Optional(Type.String({ pattern: ID })),
  jira_key: Type.Optional(Type.String({ pattern: '^[A-Z][A-Z0-9_]*-\\d+$' })),
});
export type TicketSyncCommand = Static<typeof TicketSyncCommand>;

export const ticketSyncJobId = (d: TicketSyncCommand): string => {
  switch (d.op) {
    case 'pull':
      // the scheduler adds one every 5 minutes; each must run
      return `ticket-pull-${Date.now()}`;
    case 'pull-issue':
      return `ticket-pull-issue-${d.jira_key ?? 'none'}-${d.ref ?? Date.now()}`;
    case 'create':
      return `ticket-create-${d.ticket_id}`;
    default:
      return `ticket-${d.op}-${d.ticket_id}-${d.ref ?? 'none'}`;
  }
};
