import { UnrecoverableError } from 'bullmq';
import type { JobFor } from '@cc/shared/queues.ts';
import { findCustomer } from '@cc/shared/db/customers.ts';
import { findProjectRequest } from '@cc/shared/db/provisioning.ts';
import { enqueueProvisioningMail } from '@cc/shared/provisioning/mails.ts';
import { enqueueInTransaction, publishAfterCommit } from '@cc/shared/outbox.ts';
import type { DepsOf } from '../deps.ts';
import { runProvisioning } from '../provisioning/run-chain.ts';

/**
 * provisioning.create: runs the request's remaining steps (provisioning/run-chain.ts). A transient failure is
 * thrown for the queue's backoff, except on the last attempt, where the request is marked Failed instead. The
 * e-mail of the end (Active or Failed) to the requester and the alert list is an outbox row written in the
 * transaction that records that end: a crash right after it cannot lose the e-mail, and a re-run that
 * finds the request already there owes nothing. The rows are queued right after the COMMIT (or by the reconciler).
 */
export function provisioningCreateHandler(deps: DepsOf<'provisioning'>) {
  return async (job: JobFor<'provisioning'>) => {
    const id = job.data.request_id;
    if (!(await findProjectRequest(deps.pool, id))) throw new UnrecoverableError(`Project request ${id} not found`);
    const finalAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    const recorded: string[] = [];
    const outcome = await runProvisioning(
      {
        pool: deps.pool,
        ...deps.provisioning,
        finalAttempt,
        onSettled: async (tx, r) => {
          const w = enqueueInTransaction(tx);
          const customer = await findCustomer(tx, r.customer_id);
          await enqueueProvisioningMail(tx, w.enqueue, r.state === 'Active' ? 'active' : 'failed', r, customer?.customer_name ?? r.customer_id, deps.publicUrl);
          recorded.push(...w.recorded);
        },
      },
      id,
    );
    await publishAfterCommit(deps.enqueue, recorded);
    return outcome;
  };
}
