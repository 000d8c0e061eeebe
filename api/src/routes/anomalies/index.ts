import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { findAnomalyRun } from '@cc/shared/db/anomalies.ts';
import { listAnomaliesInDisplayCurrency, notConvertedMessage } from '@cc/shared/db/anomalies-display.ts';
import { ANOMALY_MIN_HISTORY_DAYS, ANOMALY_WINDOW_DAYS } from '@cc/shared/insights/anomaly-rule.ts';
import { isIsoDate } from '@cc/shared/time.ts';
import { normaliseDecimal } from '@cc/shared/decimal.ts';
import { explainAnomaly, viewerAdmitsProject } from '@cc/shared/db/anomalies-explain.ts';
import { AnomalyAnswer, AnomalyExplanation, AnomalyExplanationParams, AnomalyParams } from '@cc/shared/schemas/insights.ts';
import { withErrors } from '@cc/shared/schemas/common.ts';
import { errors } from '../../errors.ts';
import { viewerAccount, viewerRestriction } from '../../viewer-restriction.ts';

/** A threshold from the path: decimal text ≥ 0 (no exponent games: normalised before use). */
function threshold(name: string, raw: string): string {
  const value = /^\s*[+-]?(\d+\.?\d*|\.\d+)\s*$/.test(raw) ? normaliseDecimal(raw) : null;
  if (value === null) throw new errors.badRequest(`${name} must be a number`);
  if (value.startsWith('-')) throw new errors.badRequest(`${name} must be 0 or greater`);
  return value;
}

/** Anomalies (spec 000 §7): stored detection results of one account and day, filtered by the thresholds asked. */
const anomalies: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/v1/anomalies/customer_id/:customer_id/billing_account_id/:billing_account_id/date/:date/minimum_anomaly_threshold/:minimum_anomaly_threshold/minimum_value_toggled_anomaly/:minimum_value_toggled_anomaly',
    {
      config: { permission: 'billing_read', tenant: { params: 'customer_id' } },
      schema: {
        tags: ['anomalies'],
        summary: 'Spend anomalies of a billing account on a day',
        params: AnomalyParams,
        response: withErrors({ 200: AnomalyAnswer }),
      },
    },
    async (req) => {
      const p = req.params;
      if (!isIsoDate(p.date)) throw new errors.badRequest('Invalid date, expected YYYY-MM-DD');
      const minPerc = threshold('minimum_anomaly_threshold', p.minimum_anomaly_threshold);
      const minValue = threshold('minimum_value_toggled_anomaly', p.minimum_value_toggled_anomaly);
      const customer = req.customer;
      if (!customer.billing_account_ids.includes(p.billing_account_id)) throw new errors.notFound('Billing account not found');
      // A customerViewer sees anomalies of the projects his filters admit; none left: 403, as on his billing dashboard.
      const labels = await viewerRestriction(app, customer.customer_id, req.auth);
      viewerAccount(labels, customer.billing_account_ids, p.billing_account_id);

      const base = {
        date: p.date,
        billing_account_id: p.billing_account_id,
        anomaly_detection: customer.anomaly_detection,
        window_days: ANOMALY_WINDOW_DAYS,
        min_history_days: ANOMALY_MIN_HISTORY_DAYS,
      };
      const run = customer.anomaly_detection ? await findAnomalyRun(app.pg, customer.customer_id, p.billing_account_id, p.date) : null;
      if (!run) return { ...base, anomalies: [], computed_at: null, judged_series: 0, cold_start_series: 0, cost_basis: null, not_converted: [] };
      // in the customer's display currency, whatever currency each was judged in
      const { rows, not_converted } = await listAnomaliesInDisplayCurrency(app.pg, {
        customerId: customer.customer_id,
        billingAccountId: p.billing_account_id,
        date: p.date,
        minPerc,
        minValue,
        projectLabels: labels,
        labelDays: run.window_days,
      });
      return {
        ...base,
        window_days: run.window_days,
        min_history_days: run.min_history_days,
        anomalies: rows,
        computed_at: run.computed_at,
        judged_series: run.judged_series,
        cold_start_series: run.cold_start_series,
        cost_basis: run.cost_basis,
        // left out for want of a rate: said on the screen rather than silently missing
        not_converted: not_converted.map((n) => ({ ...n, message: notConvertedMessage({ ...n, display: customer.billing_currency, date: p.date }) })),
      };
    },
  );

  /**
   * Why one anomaly of the list is one: what drove its rise (stored by the detection pass), usage or price, what
   * happened around the day, and the sentence. A viewer gets it only for a project his filters admit, and without
   * events about the whole customer.
   */
  app.get(
    '/v1/anomalies/customer_id/:customer_id/billing_account_id/:billing_account_id/date/:date/project_id/:project_id/service/:service/explanation',
    {
      config: { permission: 'billing_read', tenant: { params: 'customer_id' } },
      schema: {
        tags: ['anomalies'],
        summary: 'What drove one anomaly and what happened around it',
        params: AnomalyExplanationParams,
        response: withErrors({ 200: AnomalyExplanation }),
      },
    },
    async (req) => {
      const p = req.params;
      if (!isIsoDate(p.date)) throw new errors.badRequest('Invalid date, expected YYYY-MM-DD');
      const customer = req.customer;
      if (!customer.billing_account_ids.includes(p.billing_account_id)) throw new errors.notFound('Billing account not found');
      const labels = await viewerRestriction(app, customer.customer_id, req.auth);
      viewerAccount(labels, customer.billing_account_ids, p.billing_account_id);
      const q = { customerId: customer.customer_id, billingAccountId: p.billing_account_id, date: p.date, projectId: p.project_id, service: p.service };
      const run = customer.anomaly_detection ? await findAnomalyRun(app.pg, customer.customer_id, p.billing_account_id, p.date) : null;
      const windowDays = run?.window_days ?? ANOMALY_WINDOW_DAYS;
      // a project outside the viewer's filters is answered as an anomaly that does not exist
      if (labels !== null && !(await viewerAdmitsProject(app.pg, { ...q, windowDays, filters: labels }))) throw new errors.notFound('Anomaly not found');
      const found = run ? await explainAnomaly(app.pg, { ...q, windowDays, projectOnly: labels !== null }) : null;
      if (!found) throw new errors.notFound('Anomaly not found');
      return { date: p.date, project_id: p.project_id, service: p.service, ...found };
    },
  );
};
export default anomalies;
