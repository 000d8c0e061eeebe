import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { recordChannelEvent } from '@cc/shared/notification-channels/queue.ts';
import { projectRejectedEvent } from '@cc/shared/notification-channels/notices.ts';
import { approveProjectRequests, rejectProjectRequests, retryProjectRequests } from '@cc/shared/db/provisioning.ts';
import { enqueueProvisioning } from '@cc/shared/provisioning/jobs.ts';
import { enqueueProvisioningMail } from '@cc/shared/provisioning/mails.ts';
import { withErrors } from '@cc/shared/schemas/common.ts';
import { ProjectApproveAnswer, ProjectIdsBody, ProjectRejectAnswer, ProjectRetryAnswer, ProvisioningParams } from '@cc/shared/schemas/provisioning.ts';
import { toRecord } from '../../provisioning/present.ts';

const tags = ['provisioning'];
const config = { permission: 'admin', tenant: { params: 'customer' } } as const;

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
      // The decision, each request's job (its id counts the failures so far) and its e-mail commit together
      // in the outbox: none is lost to a crash or a Redis outage after the answer.
      const { changed, refused } = await app.outbox.transaction(async (tx, enqueue) => {
        const decided = await approveProjectRequests(tx, customer.customer_id, req.body.ids, req.auth!.email);
        for (const r of decided.changed) {
          await enqueueProvisioning(enqueue, r);
          await enqueueProvisioningMail(tx, enqueue, 'approved', r, customer.customer_name, app.config.PUBLIC_URL);
        }
        return decided;
      });
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
      // the rejections and their notices to the customer's notification channels commit together
      const { changed, refused } = await app.outbox.transaction(async (tx, enqueue) => {
        const decided = await rejectProjectRequests(tx, req.customer.customer_id, req.body.ids, req.auth!.email);
        for (const r of decided.changed) await recordChannelEvent(tx, enqueue, projectRejectedEvent(r, req.auth!.email, app.config.PUBLIC_URL));
        return decided;
      });
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
      const { changed, refused } = await app.outbox.transaction(async (tx, enqueue) => {
        const decided = await retryProjectRequests(tx, req.customer.customer_id, req.body.ids, req.auth!.email);
        for (const r of decided.changed) await enqueueProvisioning(enqueue, r);
        return decided;
      });
      return { retried: changed.map(toRecord), refused };
    },
  );
};

export default decisions;
