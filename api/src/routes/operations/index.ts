import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { markAnomaliesSeen } from '@cc/shared/db/operations.ts';
import { withErrors } from '@cc/shared/schemas/common.ts';
import { AnomaliesSeenAnswer, InboxAnswer, InboxQuery } from '@cc/shared/schemas/operations.ts';
import { pageOf } from '../../operations/inbox.ts';
import { operationsGauge } from '../../operations/metrics.ts';
import spend from './spend.ts';

const tags = ['operations'];
// Lists spanning every customer name none: an admin is admitted to all of them (the tenant guard has nothing to check).
const config = { permission: 'admin', tenant: 'none' } as const;

/** The provider's own console (docs/decisions-operations.md): admins only, across every customer. */
const operations: FastifyPluginAsyncTypebox = async (app) => {
  operationsGauge(app, app.metricsRegistry);

  app.get(
    '/v1/operations/inbox',
    {
      config,
      schema: {
        tags,
        summary: 'What needs a person now across every customer, most urgent and newest first, with counts per kind',
        querystring: InboxQuery,
        response: withErrors({ 200: InboxAnswer }),
      },
    },
    async (req) => {
      const seenAt = await app.operationsInbox.seenAt(req.auth!.email);
      const page = pageOf(await app.operationsInbox.read(seenAt), req.query);
      return { ...page, anomalies_seen_at: seenAt };
    },
  );

  app.post(
    '/v1/operations/inbox/anomalies-seen',
    {
      config,
      schema: { tags, summary: 'Marks the anomalies found so far as seen by this admin (later finds are new again)', response: withErrors({ 200: AnomaliesSeenAnswer }) },
    },
    async (req) => ({ anomalies_seen_at: await markAnomaliesSeen(app.pg, req.auth!.email) }),
  );

  await app.register(spend);
};

export default operations;
