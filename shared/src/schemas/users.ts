/**
 * User management routes: request and response schemas (spec 001 §2.7, §4, §5, §8). Only role admin holds
 * usermanagement_*.
 * Decisions behind the shapes are in docs/decisions-admin.md. Every error body is `{ detail }`; a 400 detail
 * is a sentence meant for the user (the spec's own message where it has one, e.g. 'Email list is not valid').
 *
 * Routes (path · method · permission · tenant)
 * Users (:id is the user's e-mail, URL-encoded)
 *   GET    /v1/users/                       usermanagement_read       UserListQuery → UserPage (sorted by e-mail, page size 100)
 *   GET    /v1/users/events                 usermanagement_read       text/event-stream: `event: users` with UsersChangedEvent data
 *   GET    /v1/users/:id/                   usermanagement_read       → AdminUser         (404 'User not found')
 *   POST   /v1/users/                       usermanagement_create     InviteBody → 201 InviteAnswer (invitation e-mails sent)
 *   PUT    /v1/users/:id/                   usermanagement_update     UserUpdate → AdminUser
 *   DELETE /v1/users/                       usermanagement_update     DeleteUsersBody → DeleteUsersAnswer
 *   POST   /v1/users/:id/invitation/        usermanagement_update     → 202 InvitationSent (new link; old links stop working)
 *
 * 400 messages besides schema messages: 'Email list is not valid', 'Email is not valid', 'Please grant access to at
 * least one customer', 'E-mail already exists: a@x.y, b@x.y' (the UI's 'E-mail already exists' dialog: the detail
 * starts with 'E-mail already exists'), 'Unknown customer(s): …', 'Unknown user(s): …'.
 */
import { Type, type Static } from '@sinclair/typebox';
import { ROLES } from '@cc/shared/permissions.ts';
import { Page, PageSize } from './common.ts';

export const RoleSchema = Type.Union(ROLES.map((r) => Type.Literal(r)));

/** A customer the user may access; entity_name null → shown as 'No Entity'. */
export const UserCustomer = Type.Object({
  id: Type.String(),
  name: Type.String(),
  entity: Type.Union([Type.String(), Type.Null()]),
  entity_name: Type.Union([Type.String(), Type.Null()]),
});

export const AdminUser = Type.Object({
  /** The e-mail (users are keyed by e-mail). */
  id: Type.String(),
  email: Type.String(),
  /** null: no user entry (an address only found in a customer's access list) → role text 'user not found'. */
  role: Type.Union([RoleSchema, Type.Null()]),
  email_verified: Type.Boolean(),
  /** Invited, password not set yet. */
  invitation_pending: Type.Boolean(),
  /** Distinct entity names of the user's customers (null entity → 'No Entity'), sorted. */
  entities: Type.Array(Type.String()),
  /** Customer Access, ordered by customer name. */
  customers: Type.Array(UserCustomer),
});
export type AdminUser = Static<typeof AdminUser>;

export const UserListQuery = Type.Object({
  /** 0-based page. */
  page: Type.Optional(Page()),
  page_size: Type.Optional(PageSize(500, 100)),
  /** Case-insensitive filter on e-mail, role, customer and entity names. */
  q: Type.Optional(Type.String()),
});
export type UserListQuery = Static<typeof UserListQuery>;

export const UserPage = Type.Object({
  users: Type.Array(AdminUser),
  total: Type.Integer(),
  page: Type.Integer(),
  page_size: Type.Integer(),
});
export type UserPage = Static<typeof UserPage>;

export const UserParams = Type.Object({ id: Type.String() });

/**
 * emails: the raw text of the e-mail box, several separated by commas (lower-cased and trimmed by the
 * server); customers: customer ids to grant (users list). New users get an invitation e-mail.
 */
export const InviteBody = Type.Object({
  role: Type.Optional(Type.String()),
  emails: Type.Optional(Type.String()),
  customers: Type.Optional(Type.Array(Type.String())),
});
export type InviteBody = Static<typeof InviteBody>;
export const InviteAnswer = Type.Object({ invited: Type.Array(AdminUser) });
export type InviteAnswer = Static<typeof InviteAnswer>;

/**
 * Replaces role, e-mail and customer access. Customers no longer granted: the user leaves their users,
 * notify and alert lists and loses their viewer filters there; newly granted customers: the user joins
 * `users`, and `notify` / `alert` when they were on that list of a customer they left (a move). A new e-mail
 * replaces the old one everywhere (lists, filters, entity admins).
 */
export const UserUpdate = Type.Object({
  role: Type.Optional(Type.String()),
  email: Type.Optional(Type.String()),
  customers: Type.Optional(Type.Array(Type.String())),
});
export type UserUpdate = Static<typeof UserUpdate>;

export const DeleteUsersBody = Type.Object({ users: Type.Array(Type.String(), { minItems: 1 }) });
/** deleted: how many users were removed (for '{n} user(s) deleted with success'). */
export const DeleteUsersAnswer = Type.Object({ deleted: Type.Integer() });
export type DeleteUsersAnswer = Static<typeof DeleteUsersAnswer>;

export const InvitationSent = Type.Object({ email: Type.String() });
export type InvitationSent = Static<typeof InvitationSent>;

/** Data of each `event: users` server-sent event: which users changed (ids), so lists refetch. */
export const UsersChangedEvent = Type.Object({
  type: Type.Union([Type.Literal('invited'), Type.Literal('updated'), Type.Literal('deleted'), Type.Literal('access')]),
  users: Type.Array(Type.String()),
});
export type UsersChangedEvent = Static<typeof UsersChangedEvent>;
