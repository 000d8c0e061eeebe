import type { Job } from 'bullmq';
import type { QueuePayload } from '@cc/shared/queues.ts';
import type { WorkerDeps } from '../handlers.ts';

export function ticketSyncHandler(_deps: WorkerDeps) {
  return async (_job: Job<QueuePayload<'ticket-sync'>>): Promise<unknown> => {
    throw new Error('ticket-sync is not built yet');
  };
}
