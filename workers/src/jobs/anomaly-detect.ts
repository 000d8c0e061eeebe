import type { Job } from 'bullmq';
import type { QueuePayload } from '@cc/shared/queues.ts';
import type { WorkerDeps } from '../handlers.ts';

export function anomalyDetectHandler(_deps: WorkerDeps) {
  return async (_job: Job<QueuePayload<'anomaly-detect'>>): Promise<unknown> => {
    throw new Error('anomaly-detect is not built yet');
  };
}
