import { api } from '../../app/api.ts';

/** One anomaly of the answer (spec 000 §3 'Anomaly response'). */
export interface Anomaly {
  project_id: string;
  service: string;
  /** Mean daily spend over the trailing window before the date. */
  mean_cost: number;
  /** Spend on the date: the "Latest Daily Spend". */
  to_date_cost: number;
  /** Percentage change from the mean; null when the mean is 0 (new spend). */
  delta_from_mean_cost_perc: number | null;
  currency: string;
}

/** `GET /v1/anomalies/...` (spec 000 §7 Anomalies; fields beyond the spec's explain an empty answer). */
export interface AnomalyAnswer {
  date: string;
  billing_account_id: string;
  anomalies: Anomaly[];
  anomaly_detection: boolean;
  /** null: detection has not run for this account and date yet. */
  computed_at: string | null;
  window_days: number;
  judged_series: number;
  cold_start_series: number;
  min_history_days: number;
}

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
