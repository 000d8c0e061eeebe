import { SavingIndicator } from '../../common/SavingIndicator.tsx';
import { BACKGROUND_ENDPOINTS } from '../api.ts';
import { useAppSelector } from '../hooks.ts';

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
