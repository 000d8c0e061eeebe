import type {
  ProjectApproveAnswer,
  ProjectRejectAnswer,
  ProjectRetryAnswer,
  ProjectCheck,
  ProjectCheckQuery,
  ProjectCreateBody,
  ProjectRecord,
  ProvisioningChoices,
} from '@cc/shared/schemas/provisioning.ts';
import { api } from '../../app/api.ts';

/** A page of the customer's project requests and how many there are in all. */
export interface ProjectPage {
  projects: ProjectRecord[];
  total: number;
}

const base = (customer: string) => `/v1/projectprovisioning/${encodeURIComponent(customer)}/`;

/** Project provisioning (spec 000 §7; routes in shared/src/schemas/provisioning.ts). */
export const provisioningApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** One page by project name; the count of all comes in X-Total-Count. */
    getProjectRequests: build.query<ProjectPage, { customer: string; page: number; pageSize: number }>({
      query: ({ customer, page, pageSize }) => ({ url: base(customer), params: { limit: pageSize, offset: page * pageSize } }),
      transformResponse: (projects: ProjectRecord[], meta: { response?: Response } | undefined) => {
        const total = Number(meta?.response?.headers.get('x-total-count'));
        return { projects, total: Number.isFinite(total) && total >= projects.length ? total : projects.length };
      },
      providesTags: (_r, _e, { customer }) => [{ type: 'ProjectRequest', id: `LIST/${customer}` }],
    }),
    getProvisioningChoices: build.query<ProvisioningChoices, string>({
      query: (customer) => `${base(customer)}choices`,
    }),
    checkProject: build.query<ProjectCheck, { customer: string; choice: ProjectCheckQuery }>({
      query: ({ customer, choice }) => ({ url: `${base(customer)}check`, params: choice }),
      providesTags: (_r, _e, { customer }) => [{ type: 'ProjectRequest', id: `LIST/${customer}` }],
    }),
    createProject: build.mutation<ProjectRecord, ProjectCreateBody>({
      query: (body) => ({ url: '/v1/asset-inventory/project/create', method: 'POST', body }),
      invalidatesTags: (_r, _e, body) => [{ type: 'ProjectRequest', id: `LIST/${body.customer_id}` }],
    }),
    approveProjects: build.mutation<ProjectApproveAnswer, { customer: string; ids: string[] }>({
      query: ({ customer, ids }) => ({ url: `${base(customer)}approve`, method: 'POST', body: { ids } }),
      invalidatesTags: (_r, _e, { customer }) => [{ type: 'ProjectRequest', id: `LIST/${customer}` }],
    }),
    rejectProjects: build.mutation<ProjectRejectAnswer, { customer: string; ids: string[] }>({
      query: ({ customer, ids }) => ({ url: `${base(customer)}reject`, method: 'POST', body: { ids } }),
      invalidatesTags: (_r, _e, { customer }) => [{ type: 'ProjectRequest', id: `LIST/${customer}` }],
    }),
    retryProjects: build.mutation<ProjectRetryAnswer, { customer: string; ids: string[] }>({
      query: ({ customer, ids }) => ({ url: `${base(customer)}retry`, method: 'POST', body: { ids } }),
      invalidatesTags: (_r, _e, { customer }) => [{ type: 'ProjectRequest', id: `LIST/${customer}` }],
    }),
  }),
});

export const {
  useGetProjectRequestsQuery,
  useGetProvisioningChoicesQuery,
  useCheckProjectQuery,
  useCreateProjectMutation,
  useApproveProjectsMutation,
  useRejectProjectsMutation,
  useRetryProjectsMutation,
} = provisioningApi;
