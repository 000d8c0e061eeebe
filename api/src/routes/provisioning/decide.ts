import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { approveProjectRequests, rejectProjectRequests, retryProjectRequests, type ProjectRequestRow } from '@cc/shared/db/provisioning.ts';
import { enqueueProvisioning } from '@cc/shared/provisioning/jobs.ts';
import { enqueueProvisioningMail } from '@cc/shared/provisioning/mails.ts';
import { withErrors } from '@cc/shared/schemas/common.ts';
import { ProjectApproveAnswer, ProjectIdsBody, ProjectRejectAnswer, ProjectRetryAnswer, ProvisioningParams } from '@cc/shared/schemas/provisioning.ts';
import { toRecord } from './present.ts';

const tags = ['provisioning'];
const config = { permission: 'admin', tenant: { params: 'customer' } } as const;

/**
 * One provisioning job per request (its id counts the failures so far, since failed jobs are kept). Should Redis
 * refuse it, the request stays Approved and the worker's re-queue of stalled requests adds the same job later.
 */
async function enqueueJobs(app: FastifyInstance, rows: ProjectRequestRow[]): Promise<void> {
  for (const r of rows) await enqueueProvisioning(app.producers.enqueue, r);
}

/**
 * The provider's decisions on project requests (docs/decisions-provisioning.md, The approval call): admins only,
 * on the selected ids of one customer; ids not in the state the decision needs are refused, never moved.
 */
const decisions: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/v1/projectprovisioning/:customer/approve',
    {
      config,
      schema: { tags, summary: 'Approve the selected pending requests (queued for creation)', params: ProvisioningParams, body: ProjectIdsBody, response: withErrors({ 200: ProjectApproveAnswer }) },
    },
    async (req) => {
      const customer = req.customer;
      const { changed, refused } = await approveProjectRequests(app.pg, customer.customer_id, req.body.ids, req.auth!.email);
      await enqueueJobs(app, changed);
      for (const r of changed) {
        try {
          await enqueueProvisioningMail(app.pg, app.producers.enqueue, 'approved', r, customer.customer_name, app.config.PUBLIC_URL);
        } catch (err) {
          // The approval and its job stand; only the courtesy e-mail is lost.
          req.log.warn({ err, request: r.id }, 'approval e-mail could not be queued');
        }
      }
      return { approved: changed.map(toRecord), refused };
    },
  );

  app.post(
    '/v1/projectprovisioning/:customer/reject',
    {
      config,
      schema: { tags, summary: 'Reject the selected pending or Failed requests (their project ids become free)', params: ProvisioningParams, body: ProjectIdsBody, response: withErrors({ 200: ProjectRejectAnswer }) },
    },
    async (req) => {
      const { changed, refused } = await rejectProjectRequests(app.pg, req.customer.customer_id, req.body.ids, req.auth!.email);
      return { rejected: changed.map(toRecord), refused };
    },
  );

  app.post(
    '/v1/projectprovisioning/:customer/retry',
    {
      config,
      schema: { tags, summary: 'Retry the selected Failed requests from the step that failed', params: ProvisioningParams, body: ProjectIdsBody, response: withErrors({ 200: ProjectRetryAnswer }) },
    },
    async (req) => {
      const { changed, refused } = await retryProjectRequests(app.pg, req.customer.customer_id, req.body.ids, req.auth!.email);
      await enqueueJobs(app, changed);
      return { retried: changed.map(toRecord), refused };
    },
  );
};

export default decisions;
