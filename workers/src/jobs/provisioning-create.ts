import { UnrecoverableError } from 'bullmq';
import type { JobFor } from '@cc/shared/queues.ts';
import { findCustomer } from '@cc/shared/db/customers.ts';
import { findProjectRequest } from '@cc/shared/db/provisioning.ts';
import { enqueueProvisioningMail } from '@cc/shared/provisioning/mails.ts';
import type { DepsOf } from '../deps.ts';
import { runProvisioning } from '../provisioning/run-chain.ts';

/**
 * provisioning.create: runs the request's remaining steps (provisioning/run-chain.ts). A transient failure is
 * thrown for the queue's backoff, except on the last attempt, where the request is marked Failed instead. Once
 * the request is Active or Failed, the requester and the alert list are mailed; a re-run that finds it already
 * there enqueues the same notify key, which notify drops.
 */
export function provisioningCreateHandler(deps: DepsOf<'provisioning'>) {
  return async (job: JobFor<'provisioning'>) => {
    const id = job.data.request_id;
    if (!(await findProjectRequest(deps.pool, id))) throw new UnrecoverableError(`Project request ${id} not found`);
    const finalAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    const outcome = await runProvisioning({ pool: deps.pool, ...deps.provisioning, finalAttempt }, id);
    if (outcome.state === 'Active' || outcome.state === 'Failed') {
      const r = (await findProjectRequest(deps.pool, id))!;
      const customer = await findCustomer(deps.pool, r.customer_id);
      const event = outcome.state === 'Active' ? 'active' : 'failed';
      await enqueueProvisioningMail(deps.pool, deps.enqueue, event, r, customer?.customer_name ?? r.customer_id, deps.publicUrl);
    }
    return outcome;
  };
}
