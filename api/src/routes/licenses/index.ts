import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { listLicenses } from '@cc/shared/db/licenses/licenses.ts';
import { orderPageJson } from '@cc/shared/db/licenses/orders.ts';
import { historyPageJson } from '@cc/shared/db/licenses/history.ts';
import { workspaceFromConfig } from '@cc/shared/adapters/workspace/from-config.ts';
import { withErrors } from '@cc/shared/schemas/common.ts';
import {
  CustomerParams,
  DayRangePageQuery,
  DomainParams,
  HistoryList,
  HistoryParams,
  LICENSE_LIST_LIMIT,
  LicenseList,
  LicenseOrderList,
} from '@cc/shared/schemas/licenses.ts';
import { errors } from '../../errors.ts';
import { licenseWrites } from './write.ts';
import { licenseDecisions } from './decide.ts';
import { licenseSubscriptions } from './subscriptions.ts';

function checkRange(q: { start_date?: string; end_date?: string }) {
  if (q.start_date && q.end_date && q.start_date > q.end_date) throw new errors.badRequest('start_date must not be after end_date');
  return { start_date: q.start_date, end_date: q.end_date };
}

const pageOf = (q: { offset?: number; limit?: number }) => ({ offset: q.offset ?? 0, limit: q.limit ?? LICENSE_LIST_LIMIT.default });

/** The page as PostgreSQL wrote it; the body stays the list it was, the count of the whole list goes in the header. */
function sendPage<T>(reply: FastifyReply, page: { total: number; items: string }): T {
  void reply.header('x-total-count', String(page.total));
  // JSON text made by PostgreSQL in the schema's shape, sent as it is (Fastify serialises only non-strings)
  reply.type('application/json; charset=utf-8');
  return page.items as unknown as T;
}

/**
 * Google Workspace licenses (spec 001 §2.12, §7): `{domain}` is the customer's domain_name, admitted by the tenant
 * guard like a customer id; every route needs the customer's workspace_license flag (spec 001 §2.1, `feature`). Reads
 * here; the domain's subscriptions (Create License's SKU choice) in subscriptions.ts; changes in write.ts; an admin's
 * decision on an order in decide.ts.
 */
const licenses: FastifyPluginAsyncTypebox = async (app) => {
  const workspace = await workspaceFromConfig(app.config, app.pg);

  app.get(
    '/v1/licenses/:domain',
    {
      config: { permission: 'authenticated', tenant: { domain: 'domain' }, feature: 'workspace_license' },
      schema: { tags: ['licenses'], summary: 'The customer’s licenses', params: DomainParams, response: withErrors({ 200: LicenseList }) },
    },
    async (req) => app.pgRead.fresh((db) => listLicenses(db, req.customer.customer_id)),
  );

  app.get(
    '/v1/licenses/orders/history/:customer',
    {
      config: { permission: 'authenticated', tenant: { params: 'customer' }, feature: 'workspace_license' },
      schema: {
        tags: ['licenses'],
        summary:
          'The customer’s license orders placed between start_date and end_date (US/Pacific days, both included), newest first (one page: limit/offset; X-Total-Count holds the count of all)',
        params: CustomerParams,
        querystring: DayRangePageQuery,
        response: withErrors({ 200: LicenseOrderList }),
      },
    },
    async (req, reply) => {
      const range = checkRange(req.query);
      const page = await app.pgRead.fresh((db) => orderPageJson(db, req.customer.customer_id, range, pageOf(req.query)));
      return reply.send(sendPage<Static<typeof LicenseOrderList>>(reply, page));
    },
  );

  app.get(
    '/v1/licenses/history/:domain/:with_orders',
    {
      config: { permission: 'authenticated', tenant: { domain: 'domain' }, feature: 'workspace_license' },
      schema: {
        tags: ['licenses'],
        summary:
          'Every change of the customer’s licenses (true: with their orders) between start_date and end_date, newest first (one page: limit/offset; X-Total-Count holds the count of all)',
        params: HistoryParams,
        querystring: DayRangePageQuery,
        response: withErrors({ 200: HistoryList }),
      },
    },
    async (req, reply) => {
      const range = checkRange(req.query);
      const withOrders = req.params.with_orders === 'true';
      const page = await app.pgRead.fresh((db) => historyPageJson(db, req.customer.customer_id, range, withOrders, pageOf(req.query)));
      return reply.send(sendPage<Static<typeof HistoryList>>(reply, page));
    },
  );

  await app.register(licenseSubscriptions, { workspace });
  await app.register(licenseWrites, { workspace });
  await app.register(licenseDecisions, { workspace });
};

export default licenses;
