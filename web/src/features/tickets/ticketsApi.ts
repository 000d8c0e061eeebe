import { api } from '../../app/api.ts';

/** An attachment of a ticket: `url` is the api path its bytes are fetched from as a binary blob. */
export interface Attachment {
  id: string;
  name: string;
  url: string;
  mime_type?: string;
  size?: number;
  created?: string;
  author?: string;
}

/** Whether the ticket-sync queue has written the ticket to Jira (or the local ticket system) yet. */
export type SyncState = 'pending' | 'synced' | 'failed';

/** A row of the ticket list (shared/src/schemas/tickets.ts TicketListItem). */
export interface TicketListItem {
  /** Known at once, never changes: screens navigate by it. */
  id: string;
  /** Known once the issue exists in Jira. */
  jira_issue_key: string | null;
  summary: string;
  status: string;
  priority: string;
  creation_date: string;
  creation_by: string;
  update_date: string;
  first_response_date: string | null;
  first_response_bucket: string | null;
  customer_satisfaction_score: number | null;
  customer_id: string;
  customer_name: string;
  sync_state: SyncState;
}

/** Spec 000 §3 Ticket, as the get route answers it. */
export interface Ticket extends TicketListItem {
  description: string;
  assignee: string | null;
  update_by: string | null;
  first_response_by: string | null;
  customer_satisfaction_comment: { author: string; date: string; message: string } | null;
  attachments: Attachment[];
  sync_error: string | null;
}

/** Spec 000 §3 Comment; a priority change carries previous_priority / current_priority instead. */
export interface TicketComment {
  id: string;
  message: string;
  author: string;
  date: string;
  previous_status: string | null;
  current_status: string | null;
  previous_priority?: string | null;
  current_priority?: string | null;
}

/** What a comment is sent as; the server stamps author and date from the session. */
export interface CommentBody {
  message: string;
  author?: string;
  date?: string;
  previous_status?: string | null;
  current_status?: string | null;
}

export interface NewTicket {
  /** A UUID made by the page: a retried save answers the same ticket instead of making a second. */
  id: string;
  summary: string;
  creation_date: string;
  creation_by: string;
  description: string;
  priority: string;
  customer: string;
  /** The generated names the signed upload URLs returned. */
  attachments: string[];
}

/** A page of the ticket list and the count of all the customer's tickets (the X-Total-Count header). */
export interface TicketPage {
  tickets: TicketListItem[];
  total: number;
}

export type TransitionRole = 'admin' | 'customer';

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
async function storeAnswer(id: string, { dispatch, queryFulfilled }: { dispatch: (a: unknown) => unknown; queryFulfilled: Promise<{ data: Ticket }> }) {
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
    getTicket: build.query<Ticket, string>({
      query: (id) => `${BASE}/${key(id)}`,
      transformResponse: (answer: unknown) => ((answer as { ticket?: Ticket }).ticket ?? answer) as Ticket,
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
    createTicket: build.mutation<Ticket, NewTicket>({
      query: (body) => ({ url: BASE, method: 'POST', body }),
      invalidatesTags: [{ type: 'Ticket', id: 'LIST' }],
    }),
    addComment: build.mutation<TicketComment, { id: string; comment: CommentBody }>({
      query: ({ id, comment }) => ({ url: `${BASE}/${key(id)}/comment`, method: 'POST', body: comment }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Ticket', id: `${id}/comments` }, { type: 'Ticket', id }],
    }),
    /** The comment travels with the change, so the server saves both or neither. */
    setStatus: build.mutation<Ticket, { id: string; name: string; author: string; comment: CommentBody }>({
      query: ({ id, name, author, comment }) => ({ url: `${BASE}/${key(id)}/status`, method: 'PATCH', body: { name, author, comment_body: comment } }),
      onQueryStarted: ({ id }, api) => storeAnswer(id, api),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Ticket', id }, { type: 'Ticket', id: `${id}/comments` }, { type: 'Ticket', id: 'LIST' }],
    }),
    setPriority: build.mutation<Ticket, { id: string; name: string; author: string; comment: CommentBody }>({
      query: ({ id, name, author, comment }) => ({
        url: `${BASE}/${key(id)}/priority`,
        method: 'PATCH',
        body: { priority: { name, author }, comment_body: comment },
      }),
      onQueryStarted: ({ id }, api) => storeAnswer(id, api),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Ticket', id }, { type: 'Ticket', id: `${id}/comments` }, { type: 'Ticket', id: 'LIST' }],
    }),
    setSatisfaction: build.mutation<Ticket, { id: string; score: number; message: string; author: string }>({
      query: ({ id, ...body }) => ({ url: `${BASE}/${key(id)}/satisfaction`, method: 'PATCH', body }),
      onQueryStarted: ({ id }, api) => storeAnswer(id, api),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Ticket', id }, { type: 'Ticket', id: 'LIST' }],
    }),
    addAttachment: build.mutation<Ticket, { id: string; name: string }>({
      query: ({ id, name }) => ({ url: `${BASE}/${key(id)}/attachment`, method: 'PATCH', body: { name } }),
      onQueryStarted: ({ id }, api) => storeAnswer(id, api),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Ticket', id }],
    }),
    deleteAttachment: build.mutation<unknown, { id: string; attachmentId: string }>({
      query: ({ id, attachmentId }) => ({ url: `${BASE}/${key(id)}/attachment/${key(attachmentId)}`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Ticket', id }],
    }),
    /** A signed address to upload one file to, and the name the ticket will know it by. */
    signedUploadUrl: build.mutation<{ signed_url: string; generated_name: string }, string>({
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
