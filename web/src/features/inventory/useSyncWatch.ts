import { useEffect, useRef, useState } from 'react';
import type { InventorySyncStatus } from '@cc/shared/schemas/inventory.ts';
import { api } from '../../app/api.ts';
import { useAppDispatch } from '../../app/hooks.ts';
import { useInventorySyncQuery } from './inventoryApi.ts';

/** How often the status is read while a sync runs or one was just asked for. */
export const SYNC_POLL_MS = 1000;

/**
 * The inventory sync status, followed while a sync runs or was just started here: when the run ends, everything the
 * Inventory tag covers (assets, recommendations, graph, status) is read again, so the page shows the new inventory
 * without a reload. `started()` marks a sync asked for now (its run may not have begun when the answer comes).
 */
export function useSyncWatch(customer: string) {
  const dispatch = useAppDispatch();
  const [asked, setAsked] = useState<{ before: string | null } | null>(null);
  const [poll, setPoll] = useState(false);
  const query = useInventorySyncQuery(customer, { skip: !customer, pollingInterval: poll ? SYNC_POLL_MS : 0 });
  const status = query.data;
  const running = status?.last_run?.status === 'running';
  const finishedSinceAsked = asked !== null && status?.last_run != null && !running && runKey(status) !== asked.before;
  const waiting = running || (asked !== null && !finishedSinceAsked);
  if (waiting !== poll) setPoll(waiting);

  const wasWaiting = useRef(false);
  useEffect(() => {
    if (wasWaiting.current && !waiting) dispatch(api.util.invalidateTags([{ type: 'Inventory', id: customer }]));
    wasWaiting.current = waiting;
    if (finishedSinceAsked) setAsked(null);
  }, [waiting, finishedSinceAsked, customer, dispatch]);

  return { ...query, status, running: waiting, started: () => setAsked({ before: status ? runKey(status) : null }), cancelled: () => setAsked(null) };
}

function runKey(s: InventorySyncStatus): string | null {
  return s.last_run ? `${s.last_run.started_at}/${s.last_run.status}` : null;
}
