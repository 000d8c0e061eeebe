import type { AnomalyAnswer } from '@cc/shared/schemas/insights.ts';
import { api } from '../../app/api.ts';

/** The anomaly route's path parameters (AnomalyParams), as the screen holds them. */
export interface AnomalyQuery {
  customerId: string;
  billingAccountId: string;
  date: string;
  minimumAnomalyThreshold: number | string;
  minimumValueToggledAnomaly: number | string;
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
  }),
});

export const { useGetAnomaliesQuery } = anomaliesApi;
