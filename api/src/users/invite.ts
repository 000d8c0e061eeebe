import type { FastifyInstance } from 'fastify';
import type { Queryable } from '@cc/shared/db/pool.ts';
import type { Enqueue } from '@cc/shared/producer.ts';
import { replaceInvitation } from '@cc/shared/db/invitations.ts';
import { hashInvitationToken, invitationMail, newInvitationToken } from '@cc/shared/invitations/link.ts';

/**
 * Issues a new invitation link for a user inside the caller's transaction (retiring older unused links) and records
 * its e-mail through `enqueue`, the outbox of that same transaction (`app.outbox.transaction`): the link and the
 * e-mail that carries it commit together or not at all, so a Redis outage neither loses the e-mail nor leaves a
 * link nobody was sent (the workers' reconciler queues it when Redis returns).
 */
export async function issueInvitation(app: FastifyInstance, db: Queryable, enqueue: Enqueue, userId: string): Promise<void> {
  const token = newInvitationToken();
  const ttlHours = app.config.INVITATION_TTL_HOURS;
  await replaceInvitation(db, userId, hashInvitationToken(token), new Date(Date.now() + ttlHours * 3_600_000));
  await enqueue('notify', 'notify.send', invitationMail(app.config.PUBLIC_URL, userId, token, ttlHours));
}

/** Issues a fresh link for one user and sends it (older links stop working in the same commit). */
export async function reinvite(app: FastifyInstance, userId: string): Promise<void> {
  await app.outbox.transaction((tx, enqueue) => issueInvitation(app, tx, enqueue, userId));
}
