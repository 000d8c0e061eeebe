import type { ChartKind } from './billingApi.ts';
import type { BillingProvider } from '@cc/shared/schemas/billing.ts';
import type { GroupBy } from './settings.ts';
import { visibleLabel } from './label-text.ts';

export interface DashboardTab {
  label: string;
  kind: ChartKind;
  /** Detail tabs show the Top N selector and the Projects multi-select (spec 000 §2). */
  detail: boolean;
}

/** Spec 000 §2: the tabs per group by; Project with Service only for provider gcp. */
export function tabsFor(groupBy: GroupBy, provider: BillingProvider): DashboardTab[] {
  switch (groupBy) {
    case 'serviceAndProject':
      return [
        { label: 'Total', kind: 'serviceTotal', detail: false },
        ...(provider === 'gcp' ? [{ label: 'Project with Service', kind: 'serviceDetails' as const, detail: true }] : []),
      ];
    case 'projectLabel':
      return [
        { label: 'Total with Project Label', kind: 'projectLabelTotal', detail: false },
        { label: 'Project Labels with Project', kind: 'projectLabelDetails', detail: true },
      ];
    case 'resourceLabel':
      return [
        { label: 'Total with Resource Label', kind: 'resourceLabelTotal', detail: false },
        { label: 'Resource Labels with Project', kind: 'resourceLabelDetails', detail: true },
      ];
  }
}

/** The chart's title: the tab, and on the label views the label key drawn, so the chart says what it groups by. */
export function chartTitle(tab: DashboardTab, labels: { projectLabel?: string; resourceLabel?: string }): string {
  const key = tab.kind.startsWith('projectLabel') ? labels.projectLabel : tab.kind.startsWith('resourceLabel') ? labels.resourceLabel : '';
  return key ? `${tab.label} (${visibleLabel(key)})` : tab.label;
}
