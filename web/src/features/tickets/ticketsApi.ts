import { api } from '../../app/api.ts';

/** An attachment of a ticket (spec 000 §3): `url` is fetched as a binary blob to download it. */
export interface Attachment {
  id: string;
  name: string;
  url: string;
}

/** Spec 000 §3 Ticket, as the list and get routes answer it. */
export interface Ticket {
  jira_issue_key: string;
  summary: string;
  description: string;
  priority: string;
  status: string;
  assignee?: string | null;
  creation_date: string;
  creation_by: string;
  update_date?: string | null;
  update_by?: string | null;
  first_response_date?: string | null;
  first_response_by?: string | null;
  customer_satisfaction_score?: number | null;
  customer_satisfaction_comment?: { author: string; date: string; message: string } | null;
  attachments: Attachment[];
  customer_name?: string;
}

/** Spec 000 §3 Comment. */
export interface TicketComment {
  message: string;
  author: string;
  date: string;
  previous_status?: string | null;
  current_status?: string | null;
}

export interface NewTicket {
  summary: string;
  creation_date: string;
  creation_by: string;
  description: string;
  priority: string;
  customer: string;
  /** The generated names the signed upload URLs returned. */
  attachments: string[];
}

export type TransitionRole = 'admin' | 'customer';

/** Lists may come bare or wrapped ({tickets}, {comments}): accept both. */
function listOf<T>(answer: unknown, key: string): T[] {
  if (Array.isArray(answer)) return answer as T[];
  const inner = (answer as Record<string, unknown> | null)?.[key];
  return Array.isArray(inner) ? (inner as T[]) : [];
}

const key = (k: string) => encodeURIComponent(k);
const BASE = '/v1/jira/msp_tickets';

export const ticketsApi = api.injectEndpoints({
  endpoints: (build) => ({
    listTickets: build.query<Ticket[], string>({
      query: (customer) => `${BASE}/${key(customer)}/list`,
      transformResponse: (answer: unknown) => listOf<Ticket>(answer, 'tickets'),
      providesTags: (result) => [{ type: 'Ticket', id: 'LIST' }, ...(result ?? []).map((t) => ({ type: 'Ticket' as const, id: t.jira_issue_key }))],
    }),
    getTicket: build.query<Ticket, string>({
      query: (id) => `${BASE}/${key(id)}`,
      transformResponse: (answer: unknown) => ((answer as { ticket?: Ticket }).ticket ?? answer) as Ticket,
      providesTags: (_r, _e, id) => [{ type: 'Ticket', id }],
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
    addComment: build.mutation<unknown, { id: string; comment: TicketComment }>({
      query: ({ id, comment }) => ({ url: `${BASE}/${key(id)}/comment`, method: 'POST', body: comment }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Ticket', id: `${id}/comments` }, { type: 'Ticket', id }],
    }),
    setStatus: build.mutation<unknown, { id: string; name: string; author: string }>({
      query: ({ id, name, author }) => ({ url: `${BASE}/${key(id)}/status`, method: 'PATCH', body: { name, author } }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Ticket', id }, { type: 'Ticket', id: `${id}/comments` }, { type: 'Ticket', id: 'LIST' }],
    }),
    setPriority: build.mutation<unknown, { id: string; name: string; author: string; comment: TicketComment }>({
      query: ({ id, name, author, comment }) => ({
        url: `${BASE}/${key(id)}/priority`,
        method: 'PATCH',
        body: { priority: { name, author }, comment_body: comment },
      }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Ticket', id }, { type: 'Ticket', id: `${id}/comments` }, { type: 'Ticket', id: 'LIST' }],
    }),
    setSatisfaction: build.mutation<unknown, { id: string; score: number; message: string; author: string }>({
      query: ({ id, ...body }) => ({ url: `${BASE}/${key(id)}/satisfaction`, method: 'PATCH', body }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Ticket', id }, { type: 'Ticket', id: 'LIST' }],
    }),
    addAttachment: build.mutation<unknown, { id: string; name: string }>({
      query: ({ id, name }) => ({ url: `${BASE}/${key(id)}/attachment`, method: 'PATCH', body: { name } }),
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
