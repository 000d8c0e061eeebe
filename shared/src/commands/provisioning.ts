import { Type, type Static } from '@sinclair/typebox';

/**
 * Walks one approved project request through the provisioning chain (workers/src/provisioning/run-chain.ts).
 * `attempt` counts the admin's retries of a Failed request: BullMQ keeps failed jobs (removeOnFail: false), so
 * a retry under the first job's id would be dropped as a duplicate; each retry gets an id of its own instead.
 */
export const ProvisioningCreateCommand = Type.Object({
  request_id: Type.String({ pattern: '^[0-9a-fA-F-]{36}$' }),
  attempt: Type.Optional(Type.Integer({ minimum: 1 })),
});
export type ProvisioningCreateCommand = Static<typeof ProvisioningCreateCommand>;

export const provisioningJobId = (d: ProvisioningCreateCommand): string =>
  d.attempt ? `provision-${d.request_id}-retry-${d.attempt}` : `provision-${d.request_id}`;
