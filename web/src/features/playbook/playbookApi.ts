import type { PlaybookDocument } from '@cc/shared/schemas/playbook.ts';
import { api } from '../../app/api.ts';

/** GET /v1/gdrive/customers/{customer}/folders/playbooks/ (spec 001 §7): id, name and the preview url. */
export const playbookApi = api.injectEndpoints({
  endpoints: (build) => ({
    getPlaybook: build.query<PlaybookDocument[], string>({
      query: (customer) => `/v1/gdrive/customers/${encodeURIComponent(customer)}/folders/playbooks/`,
    }),
    /** One local document's text, for the in-app preview of markdown (PlaybookDocPage). */
    getPlaybookDocument: build.query<string, { customer: string; id: string }>({
      query: ({ customer, id }) => ({
        url: `/v1/gdrive/customers/${encodeURIComponent(customer)}/folders/playbooks/${encodeURIComponent(id)}`,
        responseHandler: 'text',
      }),
    }),
  }),
});

export const { useGetPlaybookQuery, useGetPlaybookDocumentQuery } = playbookApi;
