import type { InboxAnswer, InboxKind, SpendAnswer } from '@cc/shared/schemas/operations.ts';
import { api } from '../../app/api.ts';

export interface InboxArgs {
  kind?: InboxKind;
  for_customer?: string;
  offset: number;
  limit: number;
}

/** The provider's console (admins only): the operations inbox and every customer's spend. */
export const operationsApi = api.enhanceEndpoints({ addTagTypes: ['Operations'] }).injectEndpoints({
  endpoints: (build) => ({
    getInbox: build.query<InboxAnswer, InboxArgs>({
      query: (params) => ({ url: '/v1/operations/inbox', params }),
      providesTags: [{ type: 'Operations', id: 'INBOX' }],
    }),
    markAnomaliesSeen: build.mutation<{ anomalies_seen_at: string }, void>({
      query: () => ({ url: '/v1/operations/inbox/anomalies-seen', method: 'POST' }),
      invalidatesTags: [{ type: 'Operations', id: 'INBOX' }],
    }),
    getSpend: build.query<SpendAnswer, void>({
      query: () => '/v1/operations/spend',
      providesTags: [{ type: 'Operations', id: 'SPEND' }],
    }),
  }),
});

export const { useGetInboxQuery, useMarkAnomaliesSeenMutation, useGetSpendQuery } = operationsApi;

/** Open items of every kind, for the menu's badge: the same answer the inbox page reads, one row long. */
export const useInboxTotal = (skip: boolean) =>
  useGetInboxQuery({ offset: 0, limit: 1 }, { skip, pollingInterval: 60_000 }).currentData;
