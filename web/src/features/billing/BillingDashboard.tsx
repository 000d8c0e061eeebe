import { lazy, Suspense, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { IconButton } from '@primer/react';
import { BellIcon, ChecklistIcon, DownloadIcon, GearIcon, PeopleIcon } from '@primer/octicons-react';
import { useLocation } from 'wouter';
import { DEFAULT_CURRENCY } from '@cc/shared/constants.ts';
import type { Claims } from '@cc/shared/claims.ts';
import { hasPermission } from '@cc/shared/permissions.ts';
import type { CustomerDocument } from '@cc/shared/schemas/customers.ts';
import { useGetBillingSettingsQuery } from './billingApi.ts';
import { ChartPanel } from './ChartPanel.tsx';
import { formatTimestamp } from '../../common/dates.ts';
import { chartScope, dashboardRules, panelArgs, settingsArgs } from './arrival.ts';
import { exportRange, rangeLabel } from './format.ts';
import { COST_BASIS_LABELS, GROUP_BY_LABELS, PERIOD_LABELS, PROVIDER_LABELS, validateSettings, type SavedBillingSettings } from './settings.ts';
import { tabsFor } from './tabs.ts';
import { useDashboardSettings } from './useDashboardSettings.ts';
import styles from './BillingDashboard.module.css';

// Fetched when first opened: its form fields (Primer's FormControl and what it imports) are not needed to draw the
// dashboard (the first load's 450 KB budget).
const SettingsDrawer = lazy(() => import('./SettingsDrawer.tsx').then((m) => ({ default: m.SettingsDrawer })));
// Opened on a click, like the drawer: its dialog is not part of the page's first load (the 450 KB budget).
const ExportDialog = lazy(() => import('./ExportDialog.tsx').then((m) => ({ default: m.ExportDialog })));

export interface BillingDashboardProps {
  claims: Claims;
  customer: CustomerDocument;
  billingAccountId: string;
  /** Alerts and Viewers apply only to the first billing account (spec 001 §9). */
  firstAccount: boolean;
}

/** The billing dashboard body of spec 000 §2: icons, side note, tabs per group by and the chart. */
export function BillingDashboard({ claims, customer, billingAccountId, firstAccount }: BillingDashboardProps) {
  const [, navigate] = useLocation();
  const customerId = customer.customer_id;
  // The same rules, scope and arguments app/preload.ts sends before this page's code arrives (arrival.ts).
  const rules = dashboardRules(claims, customerId);
  const { viewer, canPickProvider } = rules;
  const { value: saved, defaults, save } = useDashboardSettings(customerId, rules);
  const s = saved.settings;

  const [drawerOpen, setDrawerOpen] = useState(false);
  const [exportOpen, setExportOpen] = useState(false);
  const [tabIndex, setTabIndex] = useState(0);
  const settingsButton = useRef<HTMLButtonElement>(null);

  const { data: options } = useGetBillingSettingsQuery(settingsArgs(customerId, billingAccountId, s));
  const currency = options?.currency || (typeof customer.billing_currency === 'string' && customer.billing_currency) || DEFAULT_CURRENCY;

  const tabs = tabsFor(s.groupBy, s.provider);
  const tab = tabs[Math.min(tabIndex, tabs.length - 1)];
  // The Projects choice belongs to one mounted panel (tab + settings): another panel starts from All Selected.
  const panelKey = `${customerId}|${billingAccountId}|${tab.kind}|${JSON.stringify(s)}`;
  const [chosen, setChosen] = useState<{ panelKey: string; projects: string[] }>({ panelKey: '', projects: [] });
  const chosenProjects = chosen.panelKey === panelKey ? chosen.projects : [];
  const valid = Object.keys(validateSettings(s)).length === 0;

  const scope = chartScope(customerId, billingAccountId, s);

  const gcpFirst = s.provider === 'gcp' && firstAccount;
  const showAlerts = hasPermission(claims.perms, 'alerts_*') && gcpFirst;
  const showViewers = showAlerts && customer.billing_viewer === true;
  const showExport = hasPermission(claims.perms, 'export_*') && s.groupBy !== 'resourceLabel';
  const range = rangeLabel(s);

  function onSave(next: SavedBillingSettings) {
    save(next);
    // New settings draw a new chart: it opens on the first tab (Total), not on the tab of the old settings.
    setTabIndex(0);
    setDrawerOpen(false);
  }

  return (
    <>
      <div className={styles.top}>
        <SideNote range={range} currency={currency} costBasis={COST_BASIS_LABELS[s.costBasis]} />
        <div className={styles.icons} role="toolbar" aria-label="Billing actions">
          {showViewers ? <IconButton icon={PeopleIcon} aria-label="Viewers" variant="invisible" onClick={() => navigate('/billing/viewers')} /> : null}
          {showAlerts ? <IconButton icon={BellIcon} aria-label="Alerts" variant="invisible" onClick={() => navigate('/billing/alerts')} /> : null}
          {!viewer ? <IconButton icon={ChecklistIcon} aria-label="Reconcile with invoice" variant="invisible" onClick={() => navigate('/billing/reconcile')} /> : null}
          {showExport ? <IconButton icon={DownloadIcon} aria-label="Export" variant="invisible" disabled={!valid} onClick={() => setExportOpen(true)} /> : null}
          <IconButton ref={settingsButton} icon={GearIcon} aria-label="Settings" variant="invisible" onClick={() => setDrawerOpen(true)} />
        </div>
      </div>

      <Tabs labels={tabs.map((t) => t.label)} selected={tabs.indexOf(tab)} onSelect={setTabIndex} />

      <div role="tabpanel" id="billing-tabpanel" aria-labelledby={`billing-tab-${tabs.indexOf(tab)}`}>
        {valid ? (
          <ChartPanel
            key={panelKey}
            tab={tab}
            args={panelArgs(scope, saved)}
            showSpendSum={saved.selected.showSpendSum}
            historicalData={saved.selected.historicalData}
            currency={currency}
            onTopChange={(top) => save({ ...saved, selected: { ...saved.selected, top } })}
            onProjectsChange={(projects) => setChosen({ panelKey, projects })}
          />
        ) : (
          <p className={styles.sideNote}>Open Settings to choose a {s.groupBy === 'resourceLabel' ? 'resource' : 'project'} label.</p>
        )}
      </div>

      {drawerOpen ? (
        <Suspense fallback={null}>
          <SettingsDrawer
            value={saved}
            defaults={defaults}
            customer={customerId}
            billingAccountId={billingAccountId}
            canPickProvider={canPickProvider}
            viewer={viewer}
            onSave={onSave}
            onClose={() => setDrawerOpen(false)}
          />
        </Suspense>
      ) : null}

      {exportOpen ? (
        <Suspense fallback={null}>
          <ExportDialog
            args={
              s.groupBy === 'projectLabel'
                ? { ...scope, kind: 'projectLabelDetails', projectLabel: s.projectLabel, projects: chosenProjects }
                : { ...scope, kind: 'serviceDetails', services: s.services, projects: chosenProjects }
            }
            range={exportRange(s)}
            description={[
              ['Provider', PROVIDER_LABELS[s.provider]],
              ['Group by', s.groupBy === 'projectLabel' ? `${GROUP_BY_LABELS.projectLabel} (${s.projectLabel})` : GROUP_BY_LABELS[s.groupBy]],
              ['Date range', `${PERIOD_LABELS[s.selectedDate]} (${range})`],
              ['Cost basis', COST_BASIS_LABELS[s.costBasis]],
              ['Projects', chosenProjects.length > 0 ? chosenProjects.join(', ') : 'All Selected'],
            ]}
            onClose={() => setExportOpen(false)}
          />
        </Suspense>
      ) : null}
    </>
  );
}

/** Time zone with the current time, the date range and the currency (spec 000 §2), and the cost basis. */
function SideNote({ range, currency, costBasis }: { range: string; currency: string; costBasis: string }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 15_000);
    return () => window.clearInterval(timer);
  }, []);
  return (
    <dl className={styles.sideNote} aria-label="Billing period">
      <div>
        <dt>Time zone</dt>
        <dd>US Pacific, {formatTimestamp(now)}</dd>
      </div>
      <div>
        <dt>Date range</dt>
        <dd>{range}</dd>
      </div>
      <div>
        <dt>Currency</dt>
        <dd>{currency}</dd>
      </div>
      <div>
        <dt>Cost basis</dt>
        <dd>{costBasis}</dd>
      </div>
    </dl>
  );
}

/** A tab list with arrow-key movement (WAI-ARIA tabs pattern). */
function Tabs({ labels, selected, onSelect }: { labels: string[]; selected: number; onSelect: (i: number) => void }) {
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  function onKeyDown(e: KeyboardEvent) {
    const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    e.preventDefault();
    const next = (selected + step + labels.length) % labels.length;
    onSelect(next);
    refs.current[next]?.focus();
  }
  return (
    <div role="tablist" aria-label="Billing views" className={styles.tabs} onKeyDown={onKeyDown}>
      {labels.map((label, i) => (
        <button
          key={label}
          ref={(el) => {
            refs.current[i] = el;
          }}
          type="button"
          role="tab"
          id={`billing-tab-${i}`}
          aria-selected={i === selected}
          aria-controls="billing-tabpanel"
          tabIndex={i === selected ? 0 : -1}
          className={styles.tab}
          onClick={() => onSelect(i)}
        >
          {label}
        </button>
      ))}
    </div>
  );
}
