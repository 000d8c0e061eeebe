import { createHash } from 'node:crypto';
import type { NotifyCommand } from '../queues.ts';

/**
 * The notice sent to the account's address after its password changed: the owner learns of a change they did not
 * make. Its notify key names the change by a digest of the new (salted) hash, so the mail is sent once per change and
 * the key reveals nothing.
 */
export function passwordChangedMail(publicUrl: string, email: string, at: Date, passwordHash: string, endedSessions: number): NotifyCommand {
  const when = `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const ended = endedSessions === 1 ? '1 other sign-in was' : `${endedSessions} other sign-ins were`;
  return {
    to: [email],
    subject: 'Your CommandCenter password was changed',
    text: [
      'Hello,',
      '',
      `The password of your CommandCenter account ${email} was changed on ${when}.`,
      `${ended} ended.`,
      '',
      'If you did not change it, tell your administrator at once.',
      '',
      publicUrl,
    ].join('\n'),
    html: `<p>Hello,</p><p>The password of your CommandCenter account <b>${escapeHtml(email)}</b> was changed on ${when}.</p>
<p>${ended} ended.</p><p>If you did not change it, tell your administrator at once.</p>
<p><a href="${escapeHtml(publicUrl)}">${escapeHtml(publicUrl)}</a></p>`,
    key: `password-changed-${createHash('sha256').update(passwordHash).digest('hex').slice(0, 32)}`,
  };
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
