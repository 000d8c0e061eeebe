import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { withErrors } from '@cc/shared/schemas/common.ts';
import { IngestAccepted, IngestRequest } from '@cc/shared/schemas/billing.ts';
import { BadIngestCommand, checkIngestCommand } from '@cc/shared/commands/billing-ingest.ts';
import { checkDropFile, dropFilePath } from '../../billing/drop-file.ts';
import { errors } from '../../errors.ts';

/** The answer to a command the worker would refuse. */
function refusal(err: BadIngestCommand, file: string | undefined): Error {
  switch (err.problem) {
    case 'customer-unknown':
      return new errors.customerNotFound();
    case 'account-foreign':
      return new errors.notFound('Billing account not found');
    case 'file-not-found':
      return new errors.badRequest(`file not found in the ingest drop directory: ${file}`);
    default:
      return new errors.badRequest(err.message);
  }
}

/** Admin: enqueue the same billing-ingest job the CLI and the nightly schedule run, after the same checks. */
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
      const { customer_id, billing_account_id, source, file, from, to } = req.body;
      const full = file === undefined ? undefined : dropFilePath(app.config.INGEST_DROP_DIR, file);
      if (full === null) throw new errors.badRequest('file must be inside the ingest drop directory');
      // Built field by field: the job carries the command's fields only, whatever else the body held.
      const cmd = { customer_id, billing_account_id, source, ...(full ? { file: full } : {}), ...(from ? { from } : {}), ...(to ? { to } : {}) };
      let job: typeof cmd & { file_version?: string } = cmd;
      try {
        await checkIngestCommand(app.pg, cmd);
        if (full) {
          const checked = await checkDropFile(app.config.INGEST_DROP_DIR, full);
          // The file's version makes the job id: a rejected file fixed and dropped again under its name runs anew.
          job = { ...cmd, file: checked.path, file_version: checked.version };
        }
      } catch (err) {
        throw err instanceof BadIngestCommand ? refusal(err, file) : err;
      }
      const jobId = await app.producers.enqueue('billing-ingest', 'billing.ingest', job);
      return reply.code(202).send({ job_id: jobId, queue: 'billing-ingest' });
    },
  );
};
export default ingest;
