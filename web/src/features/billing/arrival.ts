/**
 * What the billing dashboard asks the api for when it opens: the settings drawer's choices and the first tab's chart,
 * worked out from the claims, the customer document and the settings saved in this browser. The dashboard builds
 * its requests with these functions, and the app's start (app/preload.ts) sends the same requests while the session
 * is still being confirmed, so the dashboard finds its answers in the cache (or in flight) instead of asking after
 * the page's code has arrived. The two must agree to the letter: RTK Query keys its cache by these arguments.
 */
import type { Claims } from '@cc/shared/claims.ts';
import { hasPermission } from '@cc/shared/permissions.ts';
import type { CustomerDocument } from '@cc/shared/schemas/customers.ts';
import type { AppDispatch } from '../../app/store.ts';
import { splitBillingAccounts } from '../../app/selection/customerApi.ts';
import { rememberedBillingAccount } from '../../app/selection/billing-account-memory.ts';
import { PACIFIC_TIME_ZONE } from '../../common/dates.ts';
import { billingApi, type ChartArgs, type ChartScope } from './billingApi.ts';
import { effectiveSettings, loadSettings, validateSettings, type DashboardSettings, type SavedBillingSettings, type SettingsRules } from './settings.ts';
import { tabsFor, type DashboardTab } from './tabs.ts';

/** What the claims let this user see of one customer's dashboard (spec 000 §6). */
export function dashboardRules(claims: Claims, customerId: string): SettingsRules {
  return {
    viewer: claims.role === 'customerViewer',
    canPickProvider: hasPermission(claims.perms, 'gcp_*'),
    viewerLabel: claims.filters.find((f) => f.customer === customerId)?.project_label[0]?.label_key ?? '',
  };
}

/** The saved settings bent to the rules: what the dashboard draws with. */
export const withRules = (v: SavedBillingSettings, rules: SettingsRules): SavedBillingSettings => ({ ...v, settings: effectiveSettings(v.settings, rules) });

/** The period and account part every chart and export request of the dashboard shares. */
export function chartScope(customerId: string, billingAccountId: string, s: DashboardSettings): ChartScope {
  return {
    customer: customerId,
    billingAccountId,
    provider: s.provider,
    period: s.selectedDate,
    ...(s.selectedDate === 'CustomizedPeriod' ? { startDate: s.startDate, endDate: s.endDate } : {}),
    timezone: PACIFIC_TIME_ZONE,
    costBasis: s.costBasis,
  };
}

/** A chart panel's request before its tab and Projects choice are added. */
export type PanelArgs = Omit<ChartArgs, 'kind' | 'projects'>;

export function panelArgs(scope: ChartScope, saved: SavedBillingSettings): PanelArgs {
  const s = saved.settings;
  return { ...scope, top: saved.selected.top, services: s.services, projectLabel: s.projectLabel, resourceLabel: s.resourceLabel };
}

/** One tab's chart request; only detail tabs carry the Projects choice. */
export const tabChartArgs = (args: PanelArgs, tab: DashboardTab, projects: string[]): ChartArgs => ({ ...args, kind: tab.kind, ...(tab.detail ? { projects } : {}) });

/** The drawer's choices request (the dashboard's currency comes from it too). */
export const settingsArgs = (customerId: string, billingAccountId: string, s: DashboardSettings) => ({ customer: customerId, billingAccountId, provider: s.provider });

/**
 * The requests the dashboard sends on arrival (first tab, no Projects chosen); the chart is null when the saved
 * settings cannot draw one (a label view without its label), or when the page shows a message instead (a viewer
 * without a filter on this customer, BillingPage).
 */
export function arrivalRequests(claims: Claims, customerId: string, billingAccountId: string, now = Date.now()) {
  const saved = withRules(loadSettings(customerId, now), dashboardRules(claims, customerId));
  const s = saved.settings;
  const drawn = Object.keys(validateSettings(s)).length === 0 && !(claims.role === 'customerViewer' && !claims.filters.some((f) => f.customer === customerId));
  const tab = tabsFor(s.groupBy, s.provider)[0];
  return {
    settings: settingsArgs(customerId, billingAccountId, s),
    chart: drawn ? tabChartArgs(panelArgs(chartScope(customerId, billingAccountId, s), saved), tab, []) : null,
  };
}

/** The billing account the header picks for a customer on arrival (useBillingAccounts with nothing chosen yet). */
export function arrivalAccount(customer: CustomerDocument): string | null {
  const accounts = splitBillingAccounts(customer.billing_account_id);
  const wish = rememberedBillingAccount(customer.customer_id);
  return wish && accounts.includes(wish) ? wish : (accounts[0] ?? null);
}

/**
 * Sends the dashboard's arrival requests for a customer whose document has arrived. Each subscription is dropped
 * once answered: the answer stays cached for the page (RTK Query keeps an unused answer 60 s), which subscribes
 * to the same arguments when it renders.
 */
export function preloadDashboard(dispatch: AppDispatch, claims: Claims, customer: CustomerDocument): void {
  const account = arrivalAccount(customer);
  if (!account) return;
  const req = arrivalRequests(claims, customer.customer_id, account);
  const settings = dispatch(billingApi.endpoints.getBillingSettings.initiate(req.settings));
  void settings.finally(() => settings.unsubscribe());
  if (req.chart) {
    const chart = dispatch(billingApi.endpoints.getBillingChart.initiate(req.chart));
    void chart.finally(() => chart.unsubscribe());
  }
}
