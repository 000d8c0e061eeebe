/**
 * Entity routes: request and response schemas (spec 001 §2.5, §4, §5). Only role admin holds entitymanagement_*.
 * Decisions behind the shapes are in docs/decisions-admin.md. Every error body is `{ detail }`; a 400 detail
 * is a sentence meant for the user (the spec's own message where it has one, e.g. 'Email list is not valid').
 *
 * Routes (path · method · permission · tenant)
 * Entities
 *   GET    /v1/entities/                    entitymanagement_read     → Entity[] (ordered by name)
 *   POST   /v1/entities/                    entitymanagement_create   EntityInput → 201 Entity
 *   GET    /v1/entities/:id/                entitymanagement_read     → Entity            (404 'Entity not found')
 *   PUT    /v1/entities/:id/                entitymanagement_update   EntityInput → Entity
 *   POST   /v1/entities/:id/admins/         entitymanagement_update   EntityAdminsBody → Entity (adds)
 *   DELETE /v1/entities/:id/admins/         entitymanagement_update   EntityAdminsBody → Entity (removes)
 *
 * 400 messages besides schema messages: 'name: This field is required', 'email_domain_allowed: not a domain name: …',
 * 'Unknown user(s): …'; 404 'Entity not found'.
 */
import { Type, type Static } from '@sinclair/typebox';

export const Entity = Type.Object({
  id: Type.String(),
  name: Type.String(),
  /** Allowed e-mail domains, one per line (the form's multiline text). */
  email_domain_allowed: Type.String(),
  /** Admin e-mails, sorted; empty → the list shows 'No Users'. */
  admins: Type.Array(Type.String()),
});
export type Entity = Static<typeof Entity>;

export const EntityParams = Type.Object({ id: Type.String() });

/** name required ('name: This field is required' when blank). The id is derived from the name on create. */
export const EntityInput = Type.Object({
  name: Type.String(),
  email_domain_allowed: Type.Optional(Type.String()),
});
export type EntityInput = Static<typeof EntityInput>;

export const EntityAdminsBody = Type.Object({ admins: Type.Array(Type.String(), { minItems: 1 }) });
