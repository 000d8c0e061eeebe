import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { withErrors } from '@cc/shared/schemas/common.ts';
import { ChartQuery, CustomerParams, ExportAnswer, ProjectLabelBody, ServicesBody } from '@cc/shared/schemas/billing.ts';
import { accountContext } from '../../billing/account.ts';
import { chartSettings } from '../../billing/settings.ts';
import { labelOf } from '../../billing/cells.ts';
import { serviceExport } from '../../billing/answer.ts';
import { projectLabelExportConverted } from '../../billing/label-export.ts';

/**
 * The two exports of spec 000 §7 (export_* needed; customerViewer lacks it). Resource-label grouping has no export.
 * Rows are the chart's detail, unfolded (every project and service / label value), exact to 2 decimals.
 */
const exportsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/v2/billing/details/chart/:customer/export',
    {
      config: { permission: 'export_read', tenant: { params: 'customer' }, readOnly: true },
      schema: {
        tags: ['billing'],
        summary: 'Export of the Project with Service detail',
        params: CustomerParams,
        querystring: ChartQuery,
        body: ServicesBody,
        response: withErrors({ 200: ExportAnswer }),
      },
    },
    async (req) => {
      const settings = chartSettings(req.query, { defaultProvider: 'gcp' });
      const ctx = await accountContext(app, req.customer, req.auth, req.query.billing_account_id);
      return app.pgRead.fresh((db) => serviceExport(db, ctx, settings, { services: req.body.services, projects: req.body.projects }));
    },
  );

  app.post(
    '/v2/billing/project/labels/details/chart/:customer/export',
    {
      config: { permission: 'export_read', tenant: { params: 'customer' }, readOnly: true },
      schema: {
        tags: ['billing'],
        summary: 'Export of the Project Labels with Project detail',
        params: CustomerParams,
        querystring: ChartQuery,
        body: ProjectLabelBody,
        response: withErrors({ 200: ExportAnswer }),
      },
    },
    async (req) => {
      const label = labelOf('project_label_details', req.body);
      const settings = chartSettings(req.query, { defaultProvider: 'all' });
      const ctx = await accountContext(app, req.customer, req.auth, req.query.billing_account_id);
      return app.pgRead.fresh((db) => projectLabelExportConverted(db, ctx, settings, { label, projects: req.body.projects }));
    },
  );
};
export default exportsRoutes;
