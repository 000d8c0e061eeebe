import { Link } from '@primer/react';
import { useLocation } from 'wouter';

/**
 * A link to the Workspace License list, on the tab given: a card opened directly (a bookmark, a reload) has no license
 * or order to show, and the user needs the way to the list that opens one.
 */
export function ListLink({ tab, children }: { tab: 'Existing' | 'Orders'; children: string }) {
  const [, navigate] = useLocation();
  return (
    <Link href="/workspacelicense" onClick={(e: React.MouseEvent) => (e.preventDefault(), navigate('/workspacelicense', { state: { tab } }))}>
      {children}
    </Link>
  );
}
