import type { FastifyInstance } from 'fastify';
import { Gauge, type Registry } from 'prom-client';
import { countByKind } from '@cc/shared/db/operations.ts';

/**
 * `cc_operations_inbox_items{kind}`: the operations inbox's open items per kind, read at scrape time, so operators
 * alert on the same figures the admins' inbox shows. Anomalies count those of the last 7 days (no admin's "last
 * looked" applies to a scrape).
 */
export function operationsGauge(app: FastifyInstance, registry: Registry): void {
  new Gauge({
    name: 'cc_operations_inbox_items',
    help: 'Open items of the operations inbox per kind, across every customer',
    labelNames: ['kind'],
    registers: [registry],
    async collect() {
      const counts = countByKind(await app.operationsInbox.read(null));
      for (const [kind, n] of Object.entries(counts)) this.set({ kind }, n);
    },
  });
}
