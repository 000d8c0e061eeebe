/**
 * The provisioning job of a request, in one place: the api's approve and retry and the re-queue of stalled
 * requests must all name the same job for the same request, so that BullMQ drops a second add of it (the
 * registry's job id, shared/src/commands/provisioning.ts) and the chain never runs twice at once.
 */
import type { ProvisioningCreateCommand } from '../commands/provisioning.ts';
import type { ProjectRequestRow } from '../db/provisioning.ts';
import type { Enqueue } from '../producer.ts';

/**
 * `attempt` counts the failures so far: 0 for the first run (`provision-{id}`), n after an admin's n-th retry
 * (`provision-{id}-retry-{n}`), because a job that failed for good is kept under its id.
 */
export function provisioningCommand(r: Pick<ProjectRequestRow, 'id' | 'step_log'>): ProvisioningCreateCommand {
  const attempt = r.step_log.filter((e) => e.outcome === 'failed').length;
  return { request_id: r.id, ...(attempt > 0 ? { attempt } : {}) };
}

export async function enqueueProvisioning(enqueue: Enqueue, r: Pick<ProjectRequestRow, 'id' | 'step_log'>): Promise<string> {
  return enqueue('provisioning', 'provisioning.create', provisioningCommand(r));
}
