import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { findMonitoringAccount, findMonitoringPassword } from '@cc/shared/db/monitoring.ts';
import { healthFigures } from '@cc/shared/db/monitoring-figures.ts';
import { viewerProjectIds } from '@cc/shared/db/viewer-projects.ts';
import { secretBoxFromConfig } from '@cc/shared/secrets-key.ts';
import { billingToday } from '@cc/shared/time.ts';
import { withErrors, ErrorBody } from '@cc/shared/schemas/common.ts';
import {
  HealthFigures,
  MONITORING_NOT_IMPLEMENTED,
  MonitoringPanel,
  MonitoringParams,
  MonitoringPassword,
  MonitoringRun,
} from '@cc/shared/schemas/monitoring.ts';
import type { MonitoringAction } from '@cc/shared/db/monitoring.ts';
import { errors } from '../../errors.ts';
import { monitoringJobs, MonitoringRunError } from '../../monitoring/run-job.ts';
import { cloudProjectsFromConfig } from '@cc/shared/adapters/cloud-projects/from-config.ts';
import { refuseViewer, viewerRestriction } from '../../viewer-restriction.ts';

/** Grafana's dashboards show the customer's every project: no project-label filter can narrow them. */
export const VIEWER_NO_GRAFANA = 'The monitoring dashboard covers every project of the customer; a customer viewer sees only the projects of their filter';

const RUN_STATUS = { failed: 502, 'no-worker': 503, timeout: 504 } as const;
const runErrors = { 502: ErrorBody, 503: ErrorBody, 504: ErrorBody };

/**
 * System Health (spec 000 §2, §7 Monitoring): the dashboard password, Initialize / Rebuild Dashboard (run by the
 * monitoring queue; the answer waits for it), the credentials panel and the built-in dashboard's figures.
 */
const monitoring: FastifyPluginAsyncTypebox = async (app) => {
  // Built at start: a missing or unreadable key stops the api here, not at the first click.
  const box = secretBoxFromConfig(app.config);
  const projects = cloudProjectsFromConfig(app.config, app.pg);
  const jobs = monitoringJobs(app.producers, { redisUrl: app.config.REDIS_URL, prefix: app.config.QUEUE_PREFIX });
  app.addHook('onClose', () => jobs.close());

  // Every route needs the customer's system_health_dashboard flag (spec 000 §6, `feature`).
  const feature = 'system_health_dashboard';

  app.post(
    '/v1/monitoring/:id/password',
    {
      config: { permission: 'systemhealth_read', tenant: { params: 'id' }, feature },
      schema: {
        tags: ['monitoring'],
        summary: 'The dashboard password of the customer’s System Health user',
        params: MonitoringParams,
        response: withErrors({ 200: MonitoringPassword }),
      },
    },
    async (req, reply) => {
      const customer = req.customer;
      // The built-in dashboard (MONITORING=local) applies the viewer's filter itself and its password opens nothing.
      if (app.config.MONITORING === 'grafana') refuseViewer(req.auth, VIEWER_NO_GRAFANA);
      const password = await findMonitoringPassword(app.pg, box, customer.customer_id);
      if (password === null) throw new errors.notFound(MONITORING_NOT_IMPLEMENTED);
      // a credential: no proxy or browser cache may keep it
      reply.header('cache-control', 'no-store');
      return { grafana_pass: password };
    },
  );

  const runRoute = (url: string, action: MonitoringAction, permission: 'systemhealth_create' | 'systemhealth_update', summary: string) =>
    app.post(
      url,
      {
        config: { permission, tenant: { params: 'id' }, feature },
        schema: { tags: ['monitoring'], summary, params: MonitoringParams, response: withErrors({ 200: MonitoringRun, ...runErrors }) },
      },
      async (req, reply) => {
        const customer = req.customer;
        try {
          return await jobs.run({ customer_id: customer.customer_id, action });
        } catch (err) {
          if (!(err instanceof MonitoringRunError)) throw err;
          return reply.code(RUN_STATUS[err.reason]).send({ detail: err.message });
        }
      },
    );
  runRoute('/v1/monitoring/:id/', 'initialise', 'systemhealth_create', 'Initialize Dashboard: set up the customer’s monitoring dashboard and user');
  runRoute('/v1/monitoring/:id/rebuild', 'rebuild', 'systemhealth_update', 'Rebuild Dashboard: re-apply the dashboards and repair what is missing');

  app.get(
    '/v1/monitoring/:id/',
    {
      config: { permission: 'systemhealth_read', tenant: { params: 'id' }, feature },
      schema: {
        tags: ['monitoring'],
        summary: 'The credentials panel: user ID, service account, cloud projects, last run',
        params: MonitoringParams,
        response: withErrors({ 200: MonitoringPanel }),
      },
    },
    async (req) => {
      const customer = req.customer;
      const viewer = await viewerRestriction(app, customer.customer_id, req.auth);
      const account = await findMonitoringAccount(app.pg, customer.customer_id);
      const email = customer.service_account_email;
      const granted = email ? await projects.grantedProjects({ customer_id: customer.customer_id, service_account_email: email }) : [];
      const admitted = viewer === null ? null : await viewerProjectIds(app.pg, customer.customer_id, viewer);
      return {
        user_id: customer.customer_name,
        service_account_email: email,
        projects: admitted === null ? granted : granted.filter((p) => admitted.has(p.project_id)),
        status: account?.status ?? null,
        last_error: account?.last_error ?? null,
      };
    },
  );

  app.get(
    '/v1/monitoring/:id/figures/',
    {
      config: { permission: 'systemhealth_read', tenant: { params: 'id' }, feature },
      schema: {
        tags: ['monitoring'],
        summary: 'Figures of the built-in System Health dashboard (per project spend, anomalies, alerts, tickets, freshness, jobs)',
        params: MonitoringParams,
        response: withErrors({ 200: HealthFigures }),
      },
    },
    async (req) => {
      const customer = req.customer;
      // the viewer's projects, spend and anomalies only, as on his billing dashboard; no filter left: 403 as there
      const viewer = await viewerRestriction(app, customer.customer_id, req.auth);
      return app.pgRead.fresh((db) => healthFigures(db, customer.customer_id, billingToday(), new Date(), viewer));
    },
  );
};
export default monitoring;
