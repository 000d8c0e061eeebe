import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { TSchema } from '@sinclair/typebox';
import { withErrors } from '@cc/shared/schemas/common.ts';
import { ChartPayload, ChartQuery, CustomerParams, ProjectLabelBody, ResourceLabelBody, ServicesBody } from '@cc/shared/schemas/billing.ts';
import { errors } from '../../errors.ts';
import { accountContext, chartSettings, isViewer } from './context.ts';
import { chartAnswer, type ChartBody, type ChartKind } from './answer.ts';
import { cachedJson, sendJson } from './cache.ts';

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

const isLabelKind = (k: ChartKind) => !k.startsWith('by_service') && k !== 'service_details';

/** The chosen label key of a label chart body; 400 when missing. */
export function labelOf(kind: ChartKind, body: Record<string, unknown>): string | undefined {
  if (!isLabelKind(kind)) return undefined;
  const field = kind.startsWith('project') ? 'project_label' : 'resource_label';
  const v = body[field];
  if (typeof v !== 'string' || v.trim() === '') throw new errors.badRequest(`${field}: This field is required`);
  return v;
}

const charts: FastifyPluginAsyncTypebox = async (app) => {
  for (const r of CHART_ROUTES) {
    app.post(
      r.url,
      {
        config: { permission: 'billing_read', tenant: { params: 'customer' } },
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
        const viewer = isViewer(req);
        // spec 000 §6: a customerViewer sees only the project-label view and cannot pick a provider.
        if (viewer && !r.kind.startsWith('project_label')) throw new errors.forbidden('A customer viewer sees only the project-label view');
        const body = (req.body ?? {}) as Record<string, unknown>;
        const chartBody: ChartBody = {
          services: body.services as string[] | undefined,
          projects: body.projects as string[] | undefined,
          label: labelOf(r.kind, body),
        };
        const settings = chartSettings(req.query, { defaultProvider: isLabelKind(r.kind) ? 'all' : 'gcp', forceProvider: viewer ? 'all' : undefined });
        const ctx = await accountContext(app, req, req.query.billing_account_id);
        const cacheSettings = {
          kind: r.kind,
          provider: settings.provider,
          range: settings.range,
          today: settings.today,
          top: settings.top,
          body: { ...chartBody, services: [...(chartBody.services ?? [])].sort(), projects: [...(chartBody.projects ?? [])].sort() },
          viewer: ctx.viewer,
          // discount settings and currency are part of the answer: an edited customer must not get stale months
          customer: ctx.customer,
        };
        return sendJson(reply, await cachedJson(app, ctx, cacheSettings, () => chartAnswer(app.pg, ctx, settings, r.kind, chartBody)));
      },
    );
  }
};
export default charts;
