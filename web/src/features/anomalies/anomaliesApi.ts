import type { AnomalyAnswer, AnomalyExplanation } from '@cc/shared/schemas/insights.ts';
import { api } from '../../app/api.ts';

/** The anomaly route's path parameters (AnomalyParams), as the screen holds them. */
export interface AnomalyQuery {
  customerId: string;
  billingAccountId: string;
  date: string;
  minimumAnomalyThreshold: number | string;
  minimumValueToggledAnomaly: number | string;
}

/** One anomaly of the list, for its explanation. */
export interface AnomalyExplanationQuery {
  customerId: string;
  billingAccountId: string;
  date: string;
  projectId: string;
  service: string;
}

const seg = (v: string | number) => encodeURIComponent(String(v));

export const anomaliesApi = api.injectEndpoints({
  endpoints: (build) => ({
    getAnomalies: build.query<AnomalyAnswer, AnomalyQuery>({
      // The path spells every parameter out, exactly as spec 000 §7 names it.
      query: (q) =>
        `/v1/anomalies/customer_id/${seg(q.customerId)}/billing_account_id/${seg(q.billingAccountId)}/date/${seg(q.date)}` +
        `/minimum_anomaly_threshold/${seg(q.minimumAnomalyThreshold)}/minimum_value_toggled_anomaly/${seg(q.minimumValueToggledAnomaly)}`,
      providesTags: (_r, _e, q) => [{ type: 'Anomaly', id: `${q.customerId}/${q.billingAccountId}/${q.date}` }],
    }),
    getAnomalyExplanation: build.query<AnomalyExplanation, AnomalyExplanationQuery>({
      query: (q) =>
        `/v1/anomalies/customer_id/${seg(q.customerId)}/billing_account_id/${seg(q.billingAccountId)}/date/${seg(q.date)}` +
        `/project_id/${seg(q.projectId)}/service/${seg(q.service)}/explanation`,
      // refreshed with the list it explains (a re-run of the day rewrites both)
      providesTags: (_r, _e, q) => [{ type: 'Anomaly', id: `${q.customerId}/${q.billingAccountId}/${q.date}` }],
    }),
  }),
});

export const { useGetAnomaliesQuery, useGetAnomalyExplanationQuery } = anomaliesApi;
