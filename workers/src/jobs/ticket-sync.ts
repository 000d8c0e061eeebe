import { UnrecoverableError, type Job } from 'bullmq';
import type { QueuePayload } from '@cc/shared/queues.ts';
import { markSyncFailed } from '@cc/shared/db/tickets/sync.ts';
import { localAttachmentStore } from '@cc/shared/ports/attachment-store.ts';
import type { WorkerDeps } from '../handlers.ts';
import { localTicketSystem } from '../adapters/jira/local.ts';
import { pullChanges, pullIssue, syncTicket, type TicketSyncDeps } from '../adapters/jira/sync.ts';

/**
 * ticket.sync: writes local ticket changes through to the system of record and pulls its changes back
 * (see adapters/jira/sync.ts). Without configured adapters it uses the local ticket system and the local
 * attachment directory, so a worker started with only {pool, mailer} still runs the whole flow.
 */
export function ticketSyncHandler(deps: WorkerDeps) {
  const sync: TicketSyncDeps = {
    pool: deps.pool,
    system: deps.ticketSystem ?? localTicketSystem(deps.pool, { project: 'MSP' }),
    store: deps.attachmentStore ?? localAttachmentStore({ dir: 'var/attachments', secret: 'unused-by-the-worker' }),
  };
  return async (job: Job<QueuePayload<'ticket-sync'>>): Promise<unknown> => {
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
      // shown on the ticket once the retries are spent; the periodic pull does not retry failed tickets
      if (job.attemptsMade + 1 >= (job.opts.attempts ?? 1)) await markSyncFailed(deps.pool, ticketId, (err as Error).message);
      throw err;
    }
  };
}
