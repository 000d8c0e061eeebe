import type { FastifyInstance } from 'fastify';
import { withTransaction, type Queryable } from '@cc/shared/db/pool.ts';
import { replaceInvitation } from '@cc/shared/db/invitations.ts';
import { hashInvitationToken, invitationMail, newInvitationToken } from '@cc/shared/admin/invitation.ts';
import type { NotifyCommand } from '@cc/shared/queues.ts';

/**
 * Issues a new invitation link for a user inside the caller's transaction (retiring older unused links)
 * and returns the e-mail to send once that transaction has committed.
 */
export async function issueInvitation(app: FastifyInstance, db: Queryable, userId: string): Promise<NotifyCommand> {
  const token = newInvitationToken();
  const ttlHours = app.config.INVITATION_TTL_HOURS;
  await replaceInvitation(db, userId, hashInvitationToken(token), new Date(Date.now() + ttlHours * 3_600_000));
  return invitationMail(app.config.PUBLIC_URL, userId, token, ttlHours);
}

/** Sends invitation e-mails through the notify queue (the only sender). */
export async function sendInvitations(app: FastifyInstance, mails: NotifyCommand[]): Promise<void> {
  for (const mail of mails) await app.producers.enqueue('notify', 'notify.send', mail);
}

/** Issues a fresh link for one user and sends it. */
export async function reinvite(app: FastifyInstance, userId: string): Promise<void> {
  const mail = await withTransaction(app.pg, (tx) => issueInvitation(app, tx, userId));
  await sendInvitations(app, [mail]);
}
