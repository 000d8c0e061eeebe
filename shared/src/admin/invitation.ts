import { createHash, randomBytes } from 'node:crypto';
import type { NotifyCommand } from '../queues.ts';

/** A link token: 256 random bits, URL-safe. */
export const newInvitationToken = () => randomBytes(32).toString('base64url');

/** What the store keeps instead of the token. */
export const hashInvitationToken = (token: string) => createHash('sha256').update(token).digest('hex');

export const invitationLink = (publicUrl: string, token: string) => `${publicUrl}/invitation/${token}`;

/** The invitation e-mail, sent once per link (notify key invite-{user}-{token}). */
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
    key: `invite-${email}-${token}`,
  };
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
