import { UnrecoverableError } from 'bullmq';
import type { JobFor } from '@cc/shared/queues.ts';
import type { DepsOf } from '../deps.ts';
import { provisionMonitoring } from '../monitoring/provision.ts';
import { GrafanaError } from '@cc/shared/adapters/monitoring/from-config.ts';

/** Grafana answers a retry cannot change: a refusal (4xx) stays a refusal; timeouts and throttling may pass. */
const RETRYABLE_4XX = new Set([408, 425, 429]);
const finalAnswer = (err: unknown) => err instanceof GrafanaError && err.status >= 400 && err.status < 500 && !RETRYABLE_4XX.has(err.status);

/**
 * monitoring.provision: initialises or rebuilds one customer's System Health dashboard (workers/src/monitoring/
 * provision.ts). The api waits for the outcome and shows a failure's message, so a refusal fails at once instead of
 * after every retry.
 */
export function monitoringHandler(deps: DepsOf<'monitoring'>) {
  const provision = { pool: deps.pool, service: deps.monitoringService, box: deps.secretBox, projects: deps.cloudProjects };
  return async (job: JobFor<'monitoring'>) => {
    try {
      return await provisionMonitoring(provision, job.data.customer_id, job.data.action);
    } catch (err) {
      if (finalAnswer(err)) throw new UnrecoverableError((err as Error).message);
      throw err;
    }
  };
}
