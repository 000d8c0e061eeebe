import { Spinner } from '@primer/react';
import { clsx } from 'clsx';
import styles from './SavingIndicator.module.css';
import { useAppSelector } from '../app/hooks.ts';
import { BACKGROUND_ENDPOINTS } from '../features/session/sessionApi.ts';

export interface SavingIndicatorProps {
  /** Shown while true. */
  saving: boolean;
  /** Float over the page (top centre) instead of sitting in the flow. */
  floating?: boolean;
}

/** "A page shows a saving indicator while work is in progress" (spec 001 §2.14). */
export function SavingIndicator({ saving, floating = false }: SavingIndicatorProps) {
  if (!saving) return null;
  return (
    <div role="status" aria-label="Saving" className={clsx(styles.saving, floating && styles.floating)}>
      <Spinner size="small" srText={null} />
      <span aria-hidden="true">Saving…</span>
    </div>
  );
}

/**
 * The shell's indicator: on while any user-started mutation (a save, a delete) is pending, so each
 * screen gets it without wiring. Background calls (token refresh, crash logs) do not count.
 */
export function PendingMutationsIndicator() {
  const saving = useAppSelector((s) =>
    Object.values(s.api.mutations).some((m) => m?.status === 'pending' && !BACKGROUND_ENDPOINTS.has(m.endpointName ?? '')),
  );
  return <SavingIndicator saving={saving} floating />;
}
