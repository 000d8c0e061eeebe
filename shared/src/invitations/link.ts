import { createHash, randomBytes } from 'node:crypto';
import type { NotifyCommand } from '../queues.ts';

/** A link token: 256 random bits, URL-safe. */
export const newInvitationToken = () => randomBytes(32).toString('base64url');

/** What the store keeps instead of the token. */
export const hashInvitationToken = (token: string) => createHash('sha256').update(token).digest('hex');

export const invitationLink = (publicUrl: string, token: string) => `${publicUrl}/invitation/${token}`;

/**
 * The invitation e-mail, sent once per link. Its notify key (and so the queue job id and the Message-ID) names the
 * link by a digest of the token's stored hash: never the token, which is the credential, nor the address.
 */
export function invitationMail(publicUrl: string, email: string, token: string, ttlHours: number): NotifyCommand {
  const link = invitationLink(publicUrl, token);
  const days = Math.round(ttlHours / 24);
  const valid = ttlHours % 24 === 0 ? `${days} day${days === 1 ? '' : 's'}` : `${ttlHours} hours`;
  return {
    to: [email],
    subject: 'You are invited to CommandCenter',
    text: [
      'Hello,',
      '',
      `An administrator gave ${email} access to CommandCenter.`,
      'Choose your password here (this also confirms your e-mail address):',
      '',
      link,
      '',
      `The link works once and for ${valid}.`,
    ].join('\n'),
    html: `<p>Hello,</p><p>An administrator gave <b>${escapeHtml(email)}</b> access to CommandCenter.</p>
<p><a href="${escapeHtml(link)}">Choose your password</a> (this also confirms your e-mail address).</p>
<p>The link works once and for ${valid}.</p>`,
    key: invitationMailKey(token),
  };
}

/** One key per link; the SHA-256 of the stored hash reveals neither the token nor the row's lookup key. */
export const invitationMailKey = (token: string) => `invitation-${createHash('sha256').update(hashInvitationToken(token)).digest('hex').slice(0, 32)}`;

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
