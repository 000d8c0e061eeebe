import { access } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { withErrors } from '@cc/shared/schemas/common.ts';
import { IngestAccepted, IngestRequest } from '@cc/shared/schemas/billing.ts';
import { findCustomerBillingSettings } from '@cc/shared/db/billing-query.ts';
import { errors } from '../../errors.ts';

/**
 * The file a request names, as an absolute path inside the drop directory; anything resolving outside it
 * ('..', an absolute path elsewhere) is refused, so the route cannot make the worker read arbitrary files.
 */
export function dropFilePath(dropDir: string, file: string): string | null {
  const root = resolve(dropDir);
  const full = resolve(root, file);
  return full.startsWith(root + sep) ? full : null;
}

/** Admin: enqueue the same billing-ingest job the CLI and the nightly schedule run. */
const ingest: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/v2/billing/ingest',
    {
      config: { permission: 'admin', tenant: { body: 'customer_id' } },
      schema: {
        tags: ['billing'],
        summary: 'Enqueue a billing ingest (admin)',
        body: IngestRequest,
        response: withErrors({ 202: IngestAccepted }),
      },
    },
    async (req, reply) => {
      const cmd = req.body;
      const customer = await findCustomerBillingSettings(app.pg, req.customerId!);
      if (!customer) throw new errors.customerNotFound();
      if (!customer.billing_account_ids.includes(cmd.billing_account_id)) throw new errors.notFound('Billing account not found');
      let file: string | undefined;
      if (cmd.source === 'focus-file') {
        if (!cmd.file) throw new errors.badRequest('file: This field is required for source focus-file');
        const full = dropFilePath(app.config.INGEST_DROP_DIR, cmd.file);
        if (!full) throw new errors.badRequest('file must be inside the ingest drop directory');
        try {
          await access(full);
        } catch {
          throw new errors.badRequest(`file not found in the ingest drop directory: ${cmd.file}`);
        }
        file = full;
      } else if (cmd.file) {
        throw new errors.badRequest(`file is only used with source focus-file`);
      }
      if (cmd.from && cmd.to && cmd.from > cmd.to) throw new errors.badRequest('from must not be after to');
      const data = { customer_id: cmd.customer_id, billing_account_id: cmd.billing_account_id, source: cmd.source, ...(file ? { file } : {}), ...(cmd.from ? { from: cmd.from } : {}), ...(cmd.to ? { to: cmd.to } : {}) };
      const jobId = await app.producers.enqueue('billing-ingest', data);
      return reply.code(202).send({ job_id: jobId, queue: 'billing-ingest' });
    },
  );
};
export default ingest;
