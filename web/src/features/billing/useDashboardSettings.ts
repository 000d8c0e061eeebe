import { useCallback, useMemo, useState } from 'react';
import { defaultSettings, loadSettings, saveSettings, type SavedBillingSettings, type SettingsRules } from './settings.ts';
import { withRules as applyRules } from './arrival.ts';

/**
 * The customer's saved dashboard settings (localStorage, one entry per customer, so selecting another
 * customer brings that customer's settings), the rule-bent defaults, and `save`.
 */
export function useDashboardSettings(customerId: string, rules: SettingsRules) {
  const [state, setState] = useState(() => ({ customerId, value: loadSettings(customerId) }));
  // Another customer selected: switch to that customer's settings during render, no stale frame.
  const current = state.customerId === customerId ? state : { customerId, value: loadSettings(customerId) };
  if (current !== state) setState(current);

  const { viewer, canPickProvider, viewerLabel } = rules;
  const value = useMemo(() => applyRules(current.value, { viewer, canPickProvider, viewerLabel }), [current.value, viewer, canPickProvider, viewerLabel]);
  const defaults = useMemo(() => applyRules(defaultSettings(), { viewer, canPickProvider, viewerLabel }), [viewer, canPickProvider, viewerLabel]);

  const save = useCallback(
    (next: SavedBillingSettings) => {
      saveSettings(customerId, next);
      setState({ customerId, value: next });
    },
    [customerId],
  );
  return { value, defaults, save };
}
