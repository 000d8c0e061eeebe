import { api } from './api.ts';

/** A screen crash as stored by `POST /v1/logs` (spec 000 §7); the server adds date and user. */
export interface ErrorLog {
  resource: string;
  type: string;
  data: { message: string; componentStack: string };
}

export const logsApi = api.injectEndpoints({
  endpoints: (build) => ({
    logError: build.mutation<{ id: string; date: string }, ErrorLog>({
      query: (body) => ({ url: '/v1/logs', method: 'POST', body }),
    }),
  }),
});

export const { useLogErrorMutation } = logsApi;
