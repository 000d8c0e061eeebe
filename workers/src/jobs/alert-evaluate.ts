import type { Job } from 'bullmq';
import type { QueuePayload } from '@cc/shared/queues.ts';
import type { WorkerDeps } from '../handlers.ts';

export function alertEvaluateHandler(_deps: WorkerDeps) {
  return async (_job: Job<QueuePayload<'alert-evaluate'>>): Promise<unknown> => {
    throw new Error('alert-evaluate is not built yet');
  };
}
