/**
 * Invitation routes: request and response schemas (spec 001 §2.7, §5). Public: the token is the credential.
 * Decisions behind the shapes are in docs/decisions-admin.md. Every error body is `{ detail }`; a 400 detail
 * is a sentence meant for the user (the spec's own message where it has one, e.g. 'Email list is not valid').
 *
 * Routes (path · method · permission · tenant)
 * Invitations (public: the token is the credential)
 *   GET    /v1/invitations/:token           public                    → InvitationInfo    (404 'Invitation not found or expired')
 *   POST   /v1/invitations/:token           public                    InvitationAccept → InvitationInfo (password set, e-mail verified)
 *
 * 400 messages besides schema messages: 'Must have at least 6 characters'.
 */
import { Type, type Static } from '@sinclair/typebox';

export const InvitationParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) });
export const InvitationInfo = Type.Object({ email: Type.String() });
export type InvitationInfo = Static<typeof InvitationInfo>;
/** password: at least 6 characters ('Must have at least 6 characters'). */
export const InvitationAccept = Type.Object({ password: Type.String() });
