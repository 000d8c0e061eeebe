/**
 * The dashboard's locally saved settings (spec 000 §3 'Locally saved user settings': settings
 * {groupBy, selectedDate, startDate, endDate, provider, projectLabel, resourceLabel, services} (plus costBasis) and
 * selected {showSpendSum, historicalData, top}), their defaults and their validation.
 */
import { MESSAGES } from '@cc/shared/constants.ts';
import { addDays, billingToday, isIsoDate } from '@cc/shared/time.ts';
import type { BillingPeriod, BillingProvider, TopN } from '@cc/shared/schemas/billing.ts';
import { COST_BASES, COST_BASIS_LABELS, type CostBasis } from '@cc/shared/billing/cost-basis.ts';

/** How the charts group spend; a screen setting, not a wire value (spec 000 §9: serviceAndProject is shown as Service). */
export type GroupBy = 'serviceAndProject' | 'projectLabel' | 'resourceLabel';

export interface DashboardSettings {
  groupBy: GroupBy;
  selectedDate: BillingPeriod;
  startDate: string;
  endDate: string;
  provider: BillingProvider;
  projectLabel: string;
  resourceLabel: string;
  /** Empty when all services are selected. */
  services: string[];
  /** Billed (cash, as invoiced; the default) or amortised (commitment purchases spread over the usage they cover). */
  costBasis: CostBasis;
}

export interface DashboardSelected {
  showSpendSum: boolean;
  historicalData: boolean;
  top: TopN;
}

export interface SavedBillingSettings {
  settings: DashboardSettings;
  selected: DashboardSelected;
}

export const PROVIDERS: readonly BillingProvider[] = ['gcp', 'aws', 'azure', 'all'];
export const PERIODS: readonly BillingPeriod[] = ['7days', '30days', '12months', 'CustomizedPeriod'];
export const GROUP_BYS: readonly GroupBy[] = ['serviceAndProject', 'projectLabel', 'resourceLabel'];
export const TOP_NS: readonly TopN[] = [5, 10, 15, 0];

export const PROVIDER_LABELS: Record<BillingProvider, string> = { gcp: 'GCP', aws: 'AWS', azure: 'Azure', all: 'All' };
export const PERIOD_LABELS: Record<BillingPeriod, string> = {
  '7days': '7 days',
  '30days': '30 days',
  '12months': '12 months',
  CustomizedPeriod: 'Customized period',
};
export const GROUP_BY_LABELS: Record<GroupBy, string> = { serviceAndProject: 'Service', projectLabel: 'Project Label', resourceLabel: 'Resource Label' };
export const topLabel = (top: TopN) => (top === 0 ? 'All' : `Top ${top}`);

export { COST_BASES, COST_BASIS_LABELS };
/** One line on each basis, under its choice in the drawer (docs/decisions-billing.md, "Billed / Amortised"). */
export const COST_BASIS_MEANINGS: Record<CostBasis, string> = {
  billed: 'What you pay and what the invoice says: a prepaid commitment counts in full on the day it was bought.',
  amortised: 'Prepaid commitments spread over the days of usage they cover, so spend shows when it was used.',
};

/** The default custom period: 30 days back from today, ending today (the spec leaves the offset open). */
export const CUSTOM_PERIOD_DAYS = 30;

/** Spec 000 §9 defaults: gcp, Service, 12months, Top 10, spend sum on. */
export function defaultSettings(now = Date.now()): SavedBillingSettings {
  const today = billingToday(now);
  return {
    settings: {
      groupBy: 'serviceAndProject',
      selectedDate: '12months',
      startDate: addDays(today, -CUSTOM_PERIOD_DAYS),
      endDate: today,
      provider: 'gcp',
      projectLabel: '',
      resourceLabel: '',
      services: [],
      costBasis: 'billed',
    },
    selected: { showSpendSum: true, historicalData: false, top: 10 },
  };
}

/** Field -> message; empty when the settings may be saved. */
export type SettingsErrors = Partial<Record<'projectLabel' | 'resourceLabel' | 'startDate' | 'endDate', string>>;

/** Spec 000 §5 Billing settings. */
export function validateSettings(s: DashboardSettings): SettingsErrors {
  const errors: SettingsErrors = {};
  if (s.groupBy === 'projectLabel' && !s.projectLabel) errors.projectLabel = MESSAGES.required;
  if (s.groupBy === 'resourceLabel' && !s.resourceLabel) errors.resourceLabel = MESSAGES.required;
  if (s.selectedDate === 'CustomizedPeriod') {
    if (!s.startDate) errors.startDate = MESSAGES.required;
    else if (!isIsoDate(s.startDate)) errors.startDate = 'Use the format yyyy-MM-dd';
    if (!s.endDate) errors.endDate = MESSAGES.required;
    else if (!isIsoDate(s.endDate)) errors.endDate = 'Use the format yyyy-MM-dd';
    if (!errors.startDate && !errors.endDate && s.startDate > s.endDate) errors.endDate = 'End date must not be before start date';
  }
  return errors;
}

/**
 * Changing the provider resets group by to Service (spec 000 §4) and the services choice: the services offered
 * are the new provider's, and one of another provider's would filter the chart down to nothing.
 */
export function withProvider(s: DashboardSettings, provider: BillingProvider): DashboardSettings {
  return provider === s.provider ? s : { ...s, provider, groupBy: 'serviceAndProject', services: [] };
}

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
  // The api answers a viewer with every provider's spend of their projects: the drawer says so ('All', fixed).
  if (rules.viewer) return { ...s, provider: 'all', groupBy: 'projectLabel', projectLabel: s.projectLabel || rules.viewerLabel };
  if (!rules.canPickProvider) return { ...s, provider: 'gcp', groupBy: 'serviceAndProject' };
  // Group by other than Service exists only for gcp (spec 000 §6).
  if (s.provider !== 'gcp' && s.groupBy !== 'serviceAndProject') return { ...s, groupBy: 'serviceAndProject' };
  return s;
}

const storageKey = (customerId: string) => `cc.billing.settings.${customerId}`;

const oneOf = <T>(list: readonly T[], v: unknown, fallback: T): T => (list.includes(v as T) ? (v as T) : fallback);
const str = (v: unknown, fallback: string) => (typeof v === 'string' ? v : fallback);

/** What was stored for the customer, each field checked (a stale or edited entry falls back to defaults). */
export function loadSettings(customerId: string, now = Date.now()): SavedBillingSettings {
  const d = defaultSettings(now);
  let raw: unknown;
  try {
    raw = JSON.parse(localStorage.getItem(storageKey(customerId)) ?? 'null');
  } catch {
    raw = null;
  }
  if (!raw || typeof raw !== 'object') return d;
  const { settings: s = {}, selected: sel = {} } = raw as { settings?: Record<string, unknown>; selected?: Record<string, unknown> };
  return {
    settings: {
      groupBy: oneOf(GROUP_BYS, s.groupBy, d.settings.groupBy),
      selectedDate: oneOf(PERIODS, s.selectedDate, d.settings.selectedDate),
      startDate: str(s.startDate, d.settings.startDate),
      endDate: str(s.endDate, d.settings.endDate),
      provider: oneOf(PROVIDERS, s.provider, d.settings.provider),
      projectLabel: str(s.projectLabel, ''),
      resourceLabel: str(s.resourceLabel, ''),
      services: Array.isArray(s.services) ? s.services.filter((x): x is string => typeof x === 'string') : [],
      costBasis: oneOf(COST_BASES, s.costBasis, d.settings.costBasis),
    },
    selected: {
      showSpendSum: typeof sel.showSpendSum === 'boolean' ? sel.showSpendSum : d.selected.showSpendSum,
      historicalData: typeof sel.historicalData === 'boolean' ? sel.historicalData : d.selected.historicalData,
      top: oneOf(TOP_NS, sel.top, d.selected.top),
    },
  };
}

export function saveSettings(customerId: string, value: SavedBillingSettings): void {
  try {
    localStorage.setItem(storageKey(customerId), JSON.stringify(value));
  } catch {
    // Storage full or blocked: the settings still apply for this visit.
  }
}
