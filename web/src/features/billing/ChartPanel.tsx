import { lazy, Suspense, useId, useMemo, useState } from 'react';
import { Banner, Select } from '@primer/react';
import { errorDetail } from '../../common/api-error.ts';
import { useGetBillingChartQuery } from './billingApi.ts';
import { tabChartArgs, type PanelArgs } from './arrival.ts';
import { carriesDiscounts, DiscountSummary } from './DiscountSummary.tsx';
import { SpendChart } from './SpendChart.tsx';
import { ConversionNote } from './ConversionNote.tsx';
import { TOP_NS, topLabel } from './settings.ts';
import { chartTitle, type DashboardTab } from './tabs.ts';
import type { TopN } from '@cc/shared/schemas/billing.ts';
import styles from './BillingDashboard.module.css';

// The project filter of the detail tabs only (its menu brings Primer's overlay code): not part of the billing home
// page's first load, which shows the Total tab (the 450 KB budget).
const MultiSelect = lazy(() => import('./MultiSelect.tsx').then((m) => ({ default: m.MultiSelect })));

export interface ChartPanelProps {
  tab: DashboardTab;
  /** The chart request without the Projects choice, which lives here. */
  args: PanelArgs;
  showSpendSum: boolean;
  historicalData: boolean;
  currency: string;
  onTopChange: (top: TopN) => void;
  /** The Projects choice of a detail tab, so the export can follow it. */
  onProjectsChange?: (projects: string[]) => void;
}

/**
 * One tab's body: Top N and Projects on detail tabs, the discount summary when the data carries
 * discounts, and the spend chart. Mounted per tab and settings, so the Projects choice starts empty.
 */
export function ChartPanel({ tab, args, showSpendSum, historicalData, currency, onTopChange, onProjectsChange }: ChartPanelProps) {
  const topId = useId();
  const [projects, setProjects] = useState<string[]>([]);
  const chooseProjects = (next: string[]) => {
    setProjects(next);
    onProjectsChange?.(next);
  };
  const chartArgs = tabChartArgs(args, tab, projects);
  const chart = useGetBillingChartQuery(chartArgs);
  // The Projects options come from the unfiltered, unfolded answer, so any project can be picked.
  const all = useGetBillingChartQuery({ ...args, kind: tab.kind, top: 0, projects: [] }, { skip: !tab.detail });

  const projectOptions = useMemo(() => {
    const seen = new Map<string, string>();
    for (const s of all.data?.series ?? []) if (s.project_id) seen.set(s.project_id, s.project_name || s.project_id);
    return [...seen].map(([value, name]) => ({ value, label: name === value ? value : `${name} (${value})` })).sort((a, b) => a.label.localeCompare(b.label));
  }, [all.data]);

  // While Top N or Projects change, the previous bars stay under a spinner instead of a blank.
  const payload = chart.data;
  const shownCurrency = payload?.currency ?? currency;
  const error = chart.isError ? (errorDetail(chart.error) ?? 'The chart could not be loaded') : null;

  return (
    <div className={styles.panel}>
      {tab.detail ? (
        <div className={styles.toolbar}>
          <div className={styles.field}>
            <label htmlFor={topId} className={styles.fieldLabel}>
              Top N
            </label>
            <Select id={topId} value={String(args.top)} onChange={(e) => onTopChange(Number(e.target.value) as TopN)}>
              {TOP_NS.map((n) => (
                <Select.Option key={n} value={String(n)}>
                  {topLabel(n)}
                </Select.Option>
              ))}
            </Select>
          </div>
          <Suspense fallback={null}>
            <MultiSelect label="Projects" options={projectOptions} value={projects} onChange={chooseProjects} />
          </Suspense>
        </div>
      ) : null}
      {error ? <Banner variant="critical" title="Billing data could not be loaded" description={error} /> : null}
      <ConversionNote conversion={payload?.conversion} currency={shownCurrency} />
      {payload && carriesDiscounts(payload.months, payload.billing_dashboard_type) ? (
        <DiscountSummary
          months={payload.months}
          currency={shownCurrency}
          historical={historicalData}
          dashboardType={payload.billing_dashboard_type}
          tiers={payload.tiers}
        />
      ) : null}
      <SpendChart title={chartTitle(tab, args)} payload={payload} loading={chart.isFetching} showSpendSum={showSpendSum} currency={shownCurrency} />
    </div>
  );
}
