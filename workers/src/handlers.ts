/** The job registry of the worker: one handler factory per queue of shared/src/queues.ts. */
import type { Handler, Handlers, QueueName } from '@cc/shared/queues.ts';
import { missingDeps, type DepsOf } from './deps.ts';
import { notifyHandler } from './jobs/notify.ts';
import { notifyChannelHandler } from './jobs/notify-channel.ts';
import { maintenanceHandler } from './jobs/maintenance.ts';
import { billingIngestHandler } from './jobs/billing-ingest.ts';
import { billingNightlyHandler } from './jobs/billing-nightly.ts';
import { anomalyDetectHandler } from './jobs/anomaly-detect.ts';
import { alertEvaluateHandler } from './jobs/alert-evaluate.ts';
import { ticketSyncHandler } from './jobs/ticket-sync.ts';
import { monitoringHandler } from './jobs/monitoring.ts';
import { provisioningCreateHandler } from './jobs/provisioning-create.ts';
import { inventorySyncHandler } from './jobs/inventory-sync.ts';
import { inventoryClaimsHandler } from './jobs/inventory-claims.ts';
import { licenseHandler } from './jobs/license.ts';
import { fxRatesHandler } from './jobs/fx-rates.ts';

// The mapped type makes a queue without a factory, or a factory of the wrong queue, a compile error.
const FACTORIES: { [Q in QueueName]: (deps: DepsOf<Q>) => Handler<Q> } = {
  notify: notifyHandler,
  'notify-channel': notifyChannelHandler,
  maintenance: maintenanceHandler,
  'billing-ingest': billingIngestHandler,
  'billing-nightly': billingNightlyHandler,
  'anomaly-detect': anomalyDetectHandler,
  'alert-evaluate': alertEvaluateHandler,
  'ticket-sync': ticketSyncHandler,
  monitoring: monitoringHandler,
  provisioning: provisioningCreateHandler,
  'inventory-sync': inventorySyncHandler,
  'inventory-claims': inventoryClaimsHandler,
  license: licenseHandler,
  'fx-rates': fxRatesHandler,
};

/** The handlers of the queues a process serves; throws (the process does not boot) when a dependency is missing. */
export function buildHandlers<Q extends QueueName>(queues: readonly Q[], deps: DepsOf<Q>): Handlers<Q> {
  const missing = missingDeps(queues, deps);
  if (missing.length > 0) throw new Error(`missing worker dependencies: ${missing.join(', ')}`);
  const handlers = {} as Handlers<Q>;
  for (const q of queues) handlers[q] = FACTORIES[q](deps);
  return handlers;
}
