import { useCallback, useMemo, useState } from 'react';
import { defaultSettings, loadSettings, saveSettings, type DashboardSettings, type SavedBillingSettings } from './settings.ts';

export interface SettingsRules {
  /** customerViewer: only the project-label view, no provider choice (spec 000 §6). */
  viewer: boolean;
  /** gcp_*: the provider (and then group by) may be chosen. */
  canPickProvider: boolean;
  /** The viewer's filter label key for this customer, their default project label. */
  viewerLabel: string;
}

/** The settings the dashboard draws with: the saved ones bent to what the user may see. */
export function effectiveSettings(s: DashboardSettings, rules: SettingsRules): DashboardSettings {
  if (rules.viewer) return { ...s, provider: 'gcp', groupBy: 'projectLabel', projectLabel: s.projectLabel || rules.viewerLabel };
  if (!rules.canPickProvider) return { ...s, provider: 'gcp', groupBy: 'serviceAndProject' };
  // Group by other than Service exists only for gcp (spec 000 §6).
  if (s.provider !== 'gcp' && s.groupBy !== 'serviceAndProject') return { ...s, groupBy: 'serviceAndProject' };
  return s;
}

function applyRules(v: SavedBillingSettings, rules: SettingsRules): SavedBillingSettings {
  return { ...v, settings: effectiveSettings(v.settings, rules) };
}

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
