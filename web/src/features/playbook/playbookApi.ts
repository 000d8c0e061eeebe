import type { PlaybookDocument } from '@cc/shared/schemas/licenses.ts';
import { api } from '../../app/api.ts';

/** GET /v1/gdrive/customers/{customer}/folders/playbooks/ (spec 001 §7): id, name and the preview url. */
export const playbookApi = api.injectEndpoints({
  endpoints: (build) => ({
    getPlaybook: build.query<PlaybookDocument[], string>({
      query: (customer) => `/v1/gdrive/customers/${encodeURIComponent(customer)}/folders/playbooks/`,
    }),
  }),
});

export const { useGetPlaybookQuery } = playbookApi;
