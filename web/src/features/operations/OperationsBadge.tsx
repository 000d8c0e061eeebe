import { CounterLabel } from '@primer/react';
import { useInboxTotal } from './operationsApi.ts';

/** The menu's count of open inbox items (every kind), refreshed every minute; nothing while there are none. */
export function OperationsBadge() {
  const inbox = useInboxTotal(false);
  const total = inbox ? Object.values(inbox.counts).reduce((s, n) => s + n, 0) : 0;
  return total > 0 ? <CounterLabel aria-label={`${total} open items`}>{total}</CounterLabel> : null;
}
