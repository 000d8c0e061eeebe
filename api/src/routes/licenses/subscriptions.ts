import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { listLicenses } from '@cc/shared/db/licenses/licenses.ts';
import { WorkspaceError, volumeAvailable, type Workspace } from '@cc/shared/ports/workspace.ts';
import { ErrorBody, withErrors } from '@cc/shared/schemas/common.ts';
import { DomainParams, WorkspaceSubscriptionList } from '@cc/shared/schemas/licenses.ts';
import { errors } from '../../errors.ts';

/**
 * The domain's active Workspace subscriptions (Reseller API subscriptions.list, or the local tenant): what Create
 * License offers as its SKU choice instead of an id typed by hand. A read, like the license list: any role of the
 * tenant, viewers included.
 */
export const licenseSubscriptions: FastifyPluginAsyncTypebox<{ workspace: Workspace }> = async (app, { workspace }) => {
  app.get(
    '/v1/licenses/subscriptions/:domain',
    {
      config: { permission: 'authenticated', tenant: { domain: 'domain' }, feature: 'workspace_license' },
      schema: {
        tags: ['licenses'],
        summary: 'The domain’s Workspace subscriptions (SKU id and name, seats) and whether each has a license',
        params: DomainParams,
        response: withErrors({ 200: WorkspaceSubscriptionList, 502: ErrorBody }),
      },
    },
    async (req) => {
      const customer = req.customer;
      let seats;
      try {
        seats = await workspace.listSeats(customer.domain_name);
      } catch (err) {
        if (err instanceof WorkspaceError) throw new errors.providerFailed(err.message);
        throw err;
      }
      const licensed = new Set((await listLicenses(app.pg, customer.customer_id)).map((l) => l.sku_id));
      return seats
        .map((s) => ({ sku_id: s.sku_id, sku_name: s.sku_name, plan: s.plan, volume_total: s.total, volume_available: volumeAvailable(s), licensed: licensed.has(s.sku_id) }))
        .sort((a, b) => a.sku_name.localeCompare(b.sku_name) || a.sku_id.localeCompare(b.sku_id));
    },
  );
};
