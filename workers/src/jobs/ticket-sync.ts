import { UnrecoverableError } from 'bullmq';
import type { JobFor } from '@cc/shared/queues.ts';
import { markSyncFailed } from '@cc/shared/db/tickets/sync.ts';
import type { DepsOf } from '../deps.ts';
import { CreateNotSettled, pullChanges, pullIssue, syncTicket, type TicketSyncDeps } from '../tickets/sync.ts';

/**
 * ticket.sync: writes local ticket changes through to the system of record and pulls its changes back
 * (see tickets/sync.ts).
 */
export function ticketSyncHandler(deps: DepsOf<'ticket-sync'>) {
  const sync: TicketSyncDeps = { pool: deps.pool, system: deps.ticketSystem, store: deps.attachmentStore, notices: { enqueue: deps.enqueue, publicUrl: deps.publicUrl } };
  return async (job: JobFor<'ticket-sync'>): Promise<unknown> => {
    const { op, ticket_id: ticketId, jira_key: jiraKey } = job.data;
    if (op === 'pull') return pullChanges(sync);
    if (op === 'pull-issue') {
      if (!jiraKey) throw new UnrecoverableError('pull-issue needs jira_key');
      return pullIssue(sync, jiraKey);
    }
    if (!ticketId) throw new UnrecoverableError(`${op} needs ticket_id`);
    try {
      return await syncTicket(sync, ticketId);
    } catch (err) {
      // shown on the ticket once the retries are spent; the periodic pull does not retry failed tickets. A create
      // waiting for Jira's search to settle is not a failure: the pull's catch-up tries it again later.
      if (!(err instanceof CreateNotSettled) && job.attemptsMade + 1 >= (job.opts.attempts ?? 1)) await markSyncFailed(deps.pool, ticketId, (err as Error).message);
      throw err;
    }
  };
}
