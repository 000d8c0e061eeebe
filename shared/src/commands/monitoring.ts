/**
 * The monitoring queue's command (spec 000 §7: POST /v1/monitoring/{id}/ initialises, …/rebuild rebuilds). The api
 * builds it and waits for the job, so the id rule lives here for both sides.
 */
import { Type, type Static } from '@sinclair/typebox';

export const MonitoringCommand = Type.Object({
  customer_id: Type.String({ minLength: 1 }),
  action: Type.Union([Type.Literal('initialise'), Type.Literal('rebuild')]),
});
export type MonitoringCommand = Static<typeof MonitoringCommand>;

/**
 * One run at a time per customer and action: a second click while one runs joins it instead of starting another.
 * BullMQ ids may not contain ':'; customer ids are slugs, anything else is replaced.
 */
export const monitoringJobId = (d: MonitoringCommand) => `monitoring-${d.customer_id.replace(/[^A-Za-z0-9._-]+/g, '_')}-${d.action}`;
