import { api } from '../../app/api.ts';

/** `GET /v2/billing/settings/{customer}` (spec 000 §3 'Billing settings response'), the parts the forms use. */
export interface LabelSettings {
  providers: string[];
  services: string[];
  /** label key -> its values. */
  project_labels: Record<string, string[]>;
  /** label key -> its values; a key without values is '(not applicable)'. */
  resource_labels: Record<string, string[]>;
  currency: string;
}

/**
 * The label keys and values of the alert and viewer forms. Its own endpoint name, so it never clashes
 * with the billing screen's settings endpoint; both read the same route.
 */
export const labelSettingsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getLabelSettings: build.query<LabelSettings, { customerId: string; billingAccountId: string }>({
      query: ({ customerId, billingAccountId }) => ({
        url: `/v2/billing/settings/${encodeURIComponent(customerId)}`,
        params: { billing_account_id: billingAccountId },
      }),
      providesTags: (_r, _e, q) => [{ type: 'Billing', id: `settings/${q.customerId}/${q.billingAccountId}` }],
    }),
  }),
});

export const { useGetLabelSettingsQuery } = labelSettingsApi;
