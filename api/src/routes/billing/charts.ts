import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { TSchema } from '@sinclair/typebox';
import { withErrors } from '@cc/shared/schemas/common.ts';
import { ChartPayload, ChartQuery, CustomerParams, ProjectLabelBody, ResourceLabelBody, ServicesBody } from '@cc/shared/schemas/billing.ts';
import { errors } from '../../errors.ts';
import { accountContext, isViewer } from '../../billing/account.ts';
import { chartSettings } from '../../billing/settings.ts';
import { chartBodyOf, isLabelKind, type ChartKind } from '../../billing/cells.ts';
import { chartAnswer, chartCacheSettings } from '../../billing/answer.ts';
import { cachedJson, sendJson } from '../../billing/cache.ts';

interface ChartRoute {
  url: string;
  kind: ChartKind;
  body: TSchema;
  summary: string;
}

/** The six chart routes of spec 000 §7 Billing. */
const CHART_ROUTES: ChartRoute[] = [
  { url: '/v2/billing/aggregated/by_service/chart/:customer', kind: 'by_service', body: ServicesBody, summary: 'Total tab: spend by service' },
  { url: '/v2/billing/details/chart/:customer', kind: 'service_details', body: ServicesBody, summary: 'Project with Service tab' },
  { url: '/v2/billing/project/labels/chart/:customer', kind: 'project_labels', body: ProjectLabelBody, summary: 'Total with Project Label' },
  { url: '/v2/billing/project/labels/details/chart/:customer', kind: 'project_label_details', body: ProjectLabelBody, summary: 'Project Labels with Project' },
  { url: '/v2/billing/resource/labels/chart/:customer', kind: 'resource_labels', body: ResourceLabelBody, summary: 'Total with Resource Label' },
  { url: '/v2/billing/resource/labels/details/chart/:customer', kind: 'resource_label_details', body: ResourceLabelBody, summary: 'Resource Labels with Project' },
];

const charts: FastifyPluginAsyncTypebox = async (app) => {
  for (const r of CHART_ROUTES) {
    app.post(
      r.url,
      {
        config: { permission: 'billing_read', tenant: { params: 'customer' }, readOnly: true, accessInLookup: true },
        schema: {
          tags: ['billing'],
          summary: r.summary,
          params: CustomerParams,
          querystring: ChartQuery,
          body: r.body,
          response: withErrors({ 200: ChartPayload }),
        },
      },
      async (req, reply) => {
        const viewer = isViewer(req.auth);
        // spec 000 §6: a customerViewer sees only the project-label view and cannot pick a provider.
        if (viewer && !r.kind.startsWith('project_label')) throw new errors.forbidden('A customer viewer sees only the project-label view');
        const body = chartBodyOf(r.kind, (req.body ?? {}) as Record<string, unknown>);
        const settings = chartSettings(req.query, { defaultProvider: isLabelKind(r.kind) ? 'all' : 'gcp', forceProvider: viewer ? 'all' : undefined });
        const ctx = await accountContext(app, req.customer, req.auth, req.query.billing_account_id);
        return sendJson(reply, await cachedJson(app, ctx, chartCacheSettings(ctx, settings, r.kind, body), () => app.pgRead.fresh((db) => chartAnswer(db, ctx, settings, r.kind, body)), req));
      },
    );
  }
};
export default charts;
