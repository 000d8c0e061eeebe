/**
 * Support tickets (spec 000 §2 /supportrequest*, §3 Ticket and Comment, §4 Ticket status, §7 Tickets).
 *
 * Routes (permission · tenant):
 *   GET    /v1/jira/msp_tickets/:customer/list                    supportrequest_read   · params.customer
 *   GET    /v1/jira/msp_tickets/:key                              supportrequest_read   · resolved from the ticket
 *   GET    /v1/jira/msp_tickets/:key/comment                      supportrequest_read   · resolved from the ticket
 *   POST   /v1/jira/msp_tickets                                   supportrequest_create · body.customer
 *   POST   /v1/jira/msp_tickets/:key/comment                      supportrequest_update · resolved from the ticket
 *   GET    /v1/jira/msp_tickets/:role/:state/transitions?status=  supportrequest_read   · none
 *   PATCH  /v1/jira/msp_tickets/:key/status                       supportrequest_update · resolved from the ticket
 *   PATCH  /v1/jira/msp_tickets/:key/priority                     supportrequest_update · resolved from the ticket
 *   PATCH  /v1/jira/msp_tickets/:key/satisfaction                 supportrequest_update · resolved from the ticket
 *   PATCH  /v1/jira/msp_tickets/:key/attachment                   supportrequest_update · resolved from the ticket
 *   DELETE /v1/jira/msp_tickets/:key/attachment/:attachment_id    supportrequest_update · resolved from the ticket
 *   GET    /v1/jira/msp_tickets/:key/attachment/:attachment_id    supportrequest_read   · resolved (binary download, the attachment's `url`)
 *   GET    /v1/jira/signed_url?filename=                          supportrequest_create · none
 *   PUT    /v1/jira/uploads/:generated_name?expires=&signature=   public (the signature is the authority) · none
 *   POST   /v1/jira/webhook                                       public (X-Hub-Signature HMAC of the body) · none
 *
 * `:key` is the ticket's `id` (a UUID, known at once) or its `jira_issue_key` (known once the ticket-sync queue
 * has created the issue): both find the ticket. Screens should navigate by `id`, which never changes.
 * A ticket of a customer the caller may not see answers 404 whatever key is sent.
 * Authors and dates are stamped by the server from the signed-in user; the ones a client sends are ignored.
 * Every rule violation answers 400 `{detail}`; nothing is half-saved.
 */
import { Type, type Static } from '@sinclair/typebox';
import { Limit, Offset } from './common.ts';

export const TICKET_STATUSES = ['Open', 'In Progress', 'Resolved', 'Closed', 'Cancel'] as const;
export const TICKET_PRIORITIES = ['P1', 'P2', 'P3', 'P4'] as const;

export const TicketStatus = Type.Union(TICKET_STATUSES.map((s) => Type.Literal(s)));
export const TicketPriority = Type.Union(TICKET_PRIORITIES.map((p) => Type.Literal(p)));
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);
/** ISO 8601 instants (UTC); the screens format them (ticket: YYYY/MM/DD HH:mm US/Pacific, list: en-GB 24-hour). */
const Instant = Type.String({ format: 'date-time' });

/** Where the ticket is in reaching Jira (or the local ticket system): pending until the ticket-sync queue has written it. */
export const SyncState = Type.Union([Type.Literal('pending'), Type.Literal('synced'), Type.Literal('failed')]);

/** One attachment; `url` is the api path its bytes are downloaded from (GET, binary, authenticated). */
export const TicketAttachment = Type.Object({
  id: Type.String(),
  name: Type.String(),
  url: Type.String(),
  mime_type: Type.String(),
  size: Type.Integer(),
  created: Instant,
  author: Type.String(),
});

export const SatisfactionComment = Type.Object({ author: Type.String(), date: Instant, message: Type.String() });

/** A row of the ticket list (spec 000 §2 /supportrequest columns). */
export const TicketListItem = Type.Object({
  id: Type.String({ format: 'uuid' }),
  jira_issue_key: Nullable(Type.String()),
  summary: Type.String(),
  status: TicketStatus,
  priority: TicketPriority,
  creation_date: Instant,
  creation_by: Type.String(),
  /** Last Modified. */
  update_date: Instant,
  first_response_date: Nullable(Instant),
  /** '< 1h', '< 4h', '< 24h', '< 48h' or whole hours ('73h'); null until someone from the provider answered. */
  first_response_bucket: Nullable(Type.String()),
  customer_satisfaction_score: Type.Union([Type.Integer({ minimum: 1, maximum: 5 }), Type.Null()]),
  customer_id: Type.String(),
  customer_name: Type.String(),
  sync_state: SyncState,
});

/** The whole ticket (spec 000 §3 Ticket). */
export const TicketDetail = Type.Object({
  ...TicketListItem.properties,
  description: Type.String(),
  assignee: Nullable(Type.String()),
  update_by: Nullable(Type.String()),
  first_response_by: Nullable(Type.String()),
  customer_satisfaction_comment: Type.Union([SatisfactionComment, Type.Null()]),
  attachments: Type.Array(TicketAttachment),
  /** Last error of the ticket-sync queue when sync_state is 'failed'. */
  sync_error: Nullable(Type.String()),
});

/**
 * A comment (spec 000 §3). A status-change comment carries previous_status/current_status; a priority-change
 * comment carries previous_priority/current_priority (P1..P4). Plain comments have all four null.
 */
export const TicketComment = Type.Object({
  id: Type.String(),
  message: Type.String(),
  author: Type.String(),
  date: Instant,
  previous_status: Nullable(Type.String()),
  current_status: Nullable(Type.String()),
  previous_priority: Nullable(Type.String()),
  current_priority: Nullable(Type.String()),
});

export const TicketKeyParams = Type.Object({ key: Type.String({ minLength: 1, maxLength: 200 }) });
export const TicketListParams = Type.Object({ customer: Type.String({ minLength: 1 }) });
export const TicketListQuery = Type.Object({
  limit: Type.Optional(Limit(1000, 500)),
  offset: Type.Optional(Offset()),
});
export const AttachmentParams = Type.Object({ key: Type.String({ minLength: 1, maxLength: 200 }), attachment_id: Type.String({ minLength: 1, maxLength: 200 }) });

/**
 * New ticket. Lengths and presence are checked by the server's rules (400 with the rule's message), so the
 * schema stays loose on them. `id` (optional, UUID) makes a retried POST idempotent: the same id answers the
 * same ticket and never creates a second one. `attachments` are the generated names from signed_url uploads.
 * creation_date and creation_by are accepted for the spec's shape and ignored (the server stamps them).
 */
export const CreateTicketBody = Type.Object({
  id: Type.Optional(Type.String({ format: 'uuid' })),
  customer: Type.String({ minLength: 1 }),
  summary: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
  priority: Type.Optional(Type.String()),
  attachments: Type.Optional(Type.Array(Type.String(), { maxItems: 50 })),
  creation_date: Type.Optional(Type.String()),
  creation_by: Type.Optional(Type.String()),
});

/**
 * Add a comment. author and date are stamped by the server. previous_status/current_status are accepted for the
 * status-change flow of spec 000 §4 (comment first, then PATCH status): they must equal the ticket's current
 * status and an allowed next status; the PATCH then finds this comment.
 */
export const AddCommentBody = Type.Object({
  message: Type.Optional(Type.String()),
  author: Type.Optional(Type.String()),
  date: Type.Optional(Type.String()),
  previous_status: Type.Optional(Nullable(Type.String())),
  current_status: Type.Optional(Nullable(Type.String())),
});

/**
 * Change the status. Either `comment_body` carries the comment (saved with the change in one transaction), or a
 * comment posted just before (POST comment with previous_status = current, current_status = name) is used;
 * without either: 400 'This field is required'.
 */
export const StatusBody = Type.Object({
  name: Type.String(),
  author: Type.Optional(Type.String()),
  comment_body: Type.Optional(Type.Union([Type.String(), AddCommentBody])),
});

/** Change the priority; the comment (string or {message}) is required and saved with the change. */
export const PriorityBody = Type.Object({
  priority: Type.Object({ name: Type.String(), author: Type.Optional(Type.String()) }),
  comment_body: Type.Optional(Type.Union([Type.String(), AddCommentBody])),
});

/** Customer satisfaction: score 1..5 ('Please, select satisfaction score') and message ('This field is required'). */
export const SatisfactionBody = Type.Object({
  score: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
  message: Type.Optional(Type.String()),
  author: Type.Optional(Type.String()),
});

/** Attach an uploaded file: `name` is the generated_name signed_url answered. */
export const AddAttachmentBody = Type.Object({ name: Type.String({ minLength: 1 }) });

export const TransitionsParams = Type.Object({ role: Type.String(), state: Type.String() });
/** `status`, when given, is the current status (it wins over the path's `state`). */
export const TransitionsQuery = Type.Object({ status: Type.Optional(Type.String()) });
/** Allowed next statuses for the role from the current one; Closed and Cancel answer an empty list. */
export const TransitionsAnswer = Type.Object({
  status: TicketStatus,
  role: Type.Union([Type.Literal('admin'), Type.Literal('customer')]),
  transitions: Type.Array(Type.Object({ id: Type.String(), name: TicketStatus })),
});

export const SignedUrlQuery = Type.Object({ filename: Type.String({ minLength: 1, maxLength: 255 }) });
/**
 * Where to upload one file (HTTP PUT, raw bytes as the body, any content type), and the name to hand to create or
 * add-attachment afterwards. The local store answers a path on this api valid for 15 minutes; the Google Cloud
 * Storage store answers a V4 signed URL.
 */
export const SignedUrlAnswer = Type.Object({
  signed_url: Type.String(),
  generated_name: Type.String(),
  expires_at: Instant,
});
export const UploadParams = Type.Object({ generated_name: Type.String({ minLength: 1, maxLength: 400 }) });
export const UploadQuery = Type.Object({ expires: Type.String(), signature: Type.String() });
export const UploadAnswer = Type.Object({ generated_name: Type.String(), size: Type.Integer(), mime_type: Type.String() });

/** Answers of the writes. */
export const CommentSaved = TicketComment;
export const TicketSaved = TicketDetail;
export const AttachmentDeleted = Type.Object({ id: Type.String(), deleted: Type.Literal(true) });
export const WebhookAnswer = Type.Object({ accepted: Type.Boolean() });

export type TicketListItem = Static<typeof TicketListItem>;
export type TicketDetail = Static<typeof TicketDetail>;
export type TicketComment = Static<typeof TicketComment>;
export type TicketAttachment = Static<typeof TicketAttachment>;
export type CreateTicketBody = Static<typeof CreateTicketBody>;
export type AddCommentBody = Static<typeof AddCommentBody>;
export type TransitionsAnswer = Static<typeof TransitionsAnswer>;
export type SignedUrlAnswer = Static<typeof SignedUrlAnswer>;
