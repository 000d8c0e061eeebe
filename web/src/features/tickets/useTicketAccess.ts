import { hasPermission } from '@cc/shared/permissions.ts';
import { useAppSelector } from '../../app/hooks.ts';
import type { TransitionRole } from './ticketsApi.ts';

/** Who is looking at a ticket: their e-mail (the author of what they write), role and write right. */
export function useTicketAccess() {
  const claims = useAppSelector((s) => s.session.claims);
  const admin = claims?.role === 'admin';
  return {
    email: claims?.email ?? '',
    admin,
    /** The transitions table has two columns: admin, and everybody else (spec 000 §4). */
    transitionRole: (admin ? 'admin' : 'customer') as TransitionRole,
    /** customerViewer reads tickets but changes nothing. */
    canWrite: hasPermission(claims?.perms ?? [], 'supportrequest_update'),
  };
}
