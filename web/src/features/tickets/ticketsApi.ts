import type {
  AddCommentBody,
  CreateTicketBody,
  SignedUrlAnswer,
  TicketComment,
  TicketDetail,
  TicketListItem,
  TransitionsAnswer,
} from '@cc/shared/schemas/tickets.ts';
import { api } from '../../app/api.ts';

/** A page of the ticket list and the count of all the customer's tickets (the X-Total-Count header). */
export interface TicketPage {
  tickets: TicketListItem[];
  total: number;
}

/** Whose transitions to ask for: the provider's (admin) or the customer's. */
export type TransitionRole = TransitionsAnswer['role'];

/** Lists may come bare or wrapped ({tickets}, {comments}): accept both. */
function listOf<T>(answer: unknown, key: string): T[] {
  if (Array.isArray(answer)) return answer as T[];
  const inner = (answer as Record<string, unknown> | null)?.[key];
  return Array.isArray(inner) ? (inner as T[]) : [];
}

const key = (k: string) => encodeURIComponent(k);

/**
 * The writes answer the whole ticket: put it in the cache at once, so the screen shows the change
 * together with its snackbar instead of after the refetch.
 */
async function storeAnswer(id: string, { dispatch, queryFulfilled }: { dispatch: (a: unknown) => unknown; queryFulfilled: Promise<{ data: TicketDetail }> }) {
  const answer = await queryFulfilled.catch(() => null);
  if (answer) dispatch(ticketsApi.util.upsertQueryData('getTicket', id, answer.data));
}
const BASE = '/v1/jira/msp_tickets';

export const ticketsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** One page of the list, paged on the server (last modified first); `total` counts all the customer's tickets. */
    listTickets: build.query<TicketPage, { customer: string; page: number; pageSize: number }>({
      query: ({ customer, page, pageSize }) => `${BASE}/${key(customer)}/list?limit=${pageSize}&offset=${page * pageSize}`,
      transformResponse: (answer: unknown, meta: { response?: Response } | undefined) => {
        const tickets = listOf<TicketListItem>(answer, 'tickets');
        const total = Number(meta?.response?.headers.get('x-total-count'));
        return { tickets, total: Number.isFinite(total) && total >= tickets.length ? total : tickets.length };
      },
      providesTags: (result) => [{ type: 'Ticket', id: 'LIST' }, ...(result?.tickets ?? []).map((t) => ({ type: 'Ticket' as const, id: t.id }))],
    }),
    getTicket: build.query<TicketDetail, string>({
      query: (id) => `${BASE}/${key(id)}`,
      transformResponse: (answer: unknown) => ((answer as { ticket?: TicketDetail }).ticket ?? answer) as TicketDetail,
      // Tagged by the key asked for and by the ticket's id, which the screen's changes name.
      providesTags: (result, _e, id) => [{ type: 'Ticket', id }, ...(result ? [{ type: 'Ticket' as const, id: result.id }] : [])],
    }),
    getComments: build.query<TicketComment[], string>({
      query: (id) => `${BASE}/${key(id)}/comment`,
      transformResponse: (answer: unknown) => listOf<TicketComment>(answer, 'comments'),
      providesTags: (_r, _e, id) => [{ type: 'Ticket', id: `${id}/comments` }],
    }),
    getTransitions: build.query<string[], { role: TransitionRole; status: string }>({
      query: ({ role, status }) => `${BASE}/${role}/${encodeURIComponent(status)}/transitions?status=${encodeURIComponent(status)}`,
      transformResponse: (answer: unknown) =>
        listOf<string | { name: string }>(answer, 'transitions').map((x) => (typeof x === 'string' ? x : x.name)),
    }),
    createTicket: build.mutation<TicketDetail, CreateTicketBody>({
      query: (body) => ({ url: BASE, method: 'POST', body }),
      invalidatesTags: [{ type: 'Ticket', id: 'LIST' }],
    }),
    addComment: build.mutation<TicketComment, { id: string; comment: AddCommentBody }>({
      query: ({ id, comment }) => ({ url: `${BASE}/${key(id)}/comment`, method: 'POST', body: comment }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Ticket', id: `${id}/comments` }, { type: 'Ticket', id }],
    }),
    /** The comment travels with the change, so the server saves both or neither. */
    setStatus: build.mutation<TicketDetail, { id: string; name: string; author: string; comment: AddCommentBody }>({
      query: ({ id, name, author, comment }) => ({ url: `${BASE}/${key(id)}/status`, method: 'PATCH', body: { name, author, comment_body: comment } }),
      onQueryStarted: ({ id }, api) => storeAnswer(id, api),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Ticket', id }, { type: 'Ticket', id: `${id}/comments` }, { type: 'Ticket', id: 'LIST' }],
    }),
    setPriority: build.mutation<TicketDetail, { id: string; name: string; author: string; comment: AddCommentBody }>({
      query: ({ id, name, author, comment }) => ({
        url: `${BASE}/${key(id)}/priority`,
        method: 'PATCH',
        body: { priority: { name, author }, comment_body: comment },
      }),
      onQueryStarted: ({ id }, api) => storeAnswer(id, api),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Ticket', id }, { type: 'Ticket', id: `${id}/comments` }, { type: 'Ticket', id: 'LIST' }],
    }),
    setSatisfaction: build.mutation<TicketDetail, { id: string; score: number; message: string; author: string }>({
      query: ({ id, ...body }) => ({ url: `${BASE}/${key(id)}/satisfaction`, method: 'PATCH', body }),
      onQueryStarted: ({ id }, api) => storeAnswer(id, api),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Ticket', id }, { type: 'Ticket', id: 'LIST' }],
    }),
    addAttachment: build.mutation<TicketDetail, { id: string; name: string }>({
      query: ({ id, name }) => ({ url: `${BASE}/${key(id)}/attachment`, method: 'PATCH', body: { name } }),
      onQueryStarted: ({ id }, api) => storeAnswer(id, api),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Ticket', id }],
    }),
    deleteAttachment: build.mutation<unknown, { id: string; attachmentId: string }>({
      query: ({ id, attachmentId }) => ({ url: `${BASE}/${key(id)}/attachment/${key(attachmentId)}`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Ticket', id }],
    }),
    /** A signed address to upload one file to, and the name the ticket will know it by. */
    signedUploadUrl: build.mutation<SignedUrlAnswer, string>({
      query: (filename) => `/v1/jira/signed_url?filename=${encodeURIComponent(filename)}`,
    }),
  }),
});

export const {
  useListTicketsQuery,
  useGetTicketQuery,
  useGetCommentsQuery,
  useGetTransitionsQuery,
  useCreateTicketMutation,
  useAddCommentMutation,
  useSetStatusMutation,
  useSetPriorityMutation,
  useSetSatisfactionMutation,
  useAddAttachmentMutation,
  useDeleteAttachmentMutation,
  useSignedUploadUrlMutation,
} = ticketsApi;
