import { useState } from 'react';
import { Checkbox, Dialog, FormControl, Radio, RadioGroup, Select, TextInput } from '@primer/react';
import {
  COST_BASES,
  COST_BASIS_LABELS,
  COST_BASIS_MEANINGS,
  GROUP_BY_LABELS,
  GROUP_BYS,
  PERIOD_LABELS,
  PERIODS,
  PROVIDER_LABELS,
  PROVIDERS,
  TOP_NS,
  topLabel,
  validateSettings,
  withProvider,
  type DashboardSettings,
  type GroupBy,
  type SavedBillingSettings,
} from './settings.ts';
import { MultiSelect } from './MultiSelect.tsx';
import { visibleLabel } from './label-text.ts';
import { useGetBillingSettingsQuery } from './billingApi.ts';
import type { BillingPeriod, BillingProvider, CostBasis, TopN } from '@cc/shared/schemas/billing.ts';
import styles from './BillingDashboard.module.css';

export interface SettingsDrawerProps {
  value: SavedBillingSettings;
  /** What Reset to default restores. */
  defaults: SavedBillingSettings;
  customer: string;
  billingAccountId: string;
  /** gcp_*: the provider may be chosen. */
  canPickProvider: boolean;
  /** customerViewer: only the project-label view. */
  viewer: boolean;
  onSave: (value: SavedBillingSettings) => void;
  onClose: () => void;
}

/**
 * The Settings drawer (spec 000 §2): provider, group by, date range, services, project label,
 * resource label, cost basis, show spend sum, historical data, top. Save stays disabled while a required choice
 * is missing; Reset to default puts the defaults into the form.
 */
export function SettingsDrawer({ value, defaults, customer, billingAccountId, canPickProvider, viewer, onSave, onClose }: SettingsDrawerProps) {
  const [draft, setDraft] = useState<SavedBillingSettings>(value);
  const s = draft.settings;
  // The choices follow the provider chosen in the drawer, so gcp offers gcp's services only.
  const { currentData: options } = useGetBillingSettingsQuery({ customer, billingAccountId, provider: s.provider });
  const errors = validateSettings(s);
  const invalid = Object.keys(errors).length > 0;
  // Spec 000 §6: group by is offered only with gcp_* and provider gcp; a viewer has the label view only.
  const canPickGroupBy = canPickProvider && s.provider === 'gcp' && !viewer;

  const setSettings = (patch: Partial<DashboardSettings>) => setDraft((d) => ({ ...d, settings: { ...d.settings, ...patch } }));
  const setSelected = (patch: Partial<SavedBillingSettings['selected']>) => setDraft((d) => ({ ...d, selected: { ...d.selected, ...patch } }));

  const projectLabels = Object.keys(options?.project_labels ?? {}).sort();
  const resourceLabels = Object.entries(options?.resource_labels ?? {}).sort(([a], [b]) => a.localeCompare(b));
  const services = options?.services ?? [];

  return (
    <Dialog
      title="Settings"
      position="right"
      width="medium"
      onClose={onClose}
      footerButtons={[
        { content: 'Reset to default', onClick: () => setDraft(defaults) },
        { content: 'Cancel', onClick: onClose },
        { content: 'Save', buttonType: 'primary', disabled: invalid, onClick: () => onSave(draft) },
      ]}
    >
      <form
        className={styles.drawerForm}
        aria-label="Billing settings"
        onSubmit={(e) => {
          e.preventDefault();
          if (!invalid) onSave(draft);
        }}
      >
        <FormControl disabled={!canPickProvider || viewer}>
          <FormControl.Label>Provider</FormControl.Label>
          <Select block value={s.provider} onChange={(e) => setDraft((d) => ({ ...d, settings: withProvider(d.settings, e.target.value as BillingProvider) }))}>
            {PROVIDERS.map((p) => (
              <Select.Option key={p} value={p}>
                {PROVIDER_LABELS[p]}
              </Select.Option>
            ))}
          </Select>
        </FormControl>

        <FormControl disabled={!canPickGroupBy}>
          <FormControl.Label>Group by</FormControl.Label>
          <Select block value={s.groupBy} onChange={(e) => setSettings({ groupBy: e.target.value as GroupBy })}>
            {GROUP_BYS.map((g) => (
              <Select.Option key={g} value={g}>
                {GROUP_BY_LABELS[g]}
              </Select.Option>
            ))}
          </Select>
          {!canPickGroupBy && !viewer ? <FormControl.Caption>Other groupings are available for the GCP provider.</FormControl.Caption> : null}
        </FormControl>

        <FormControl>
          <FormControl.Label>Date range</FormControl.Label>
          <Select block value={s.selectedDate} onChange={(e) => setSettings({ selectedDate: e.target.value as BillingPeriod })}>
            {PERIODS.map((p) => (
              <Select.Option key={p} value={p}>
                {PERIOD_LABELS[p]}
              </Select.Option>
            ))}
          </Select>
        </FormControl>

        {s.selectedDate === 'CustomizedPeriod' ? (
          <div className={styles.dateRow}>
            <FormControl required>
              <FormControl.Label>Start date</FormControl.Label>
              <TextInput
                type="date"
                value={s.startDate}
                max={s.endDate || undefined}
                onChange={(e) => setSettings({ startDate: e.target.value })}
                validationStatus={errors.startDate ? 'error' : undefined}
              />
              {errors.startDate ? <FormControl.Validation variant="error">{errors.startDate}</FormControl.Validation> : null}
            </FormControl>
            <FormControl required>
              <FormControl.Label>End date</FormControl.Label>
              <TextInput
                type="date"
                value={s.endDate}
                min={s.startDate || undefined}
                onChange={(e) => setSettings({ endDate: e.target.value })}
                validationStatus={errors.endDate ? 'error' : undefined}
              />
              {errors.endDate ? <FormControl.Validation variant="error">{errors.endDate}</FormControl.Validation> : null}
            </FormControl>
          </div>
        ) : null}

        {s.groupBy === 'serviceAndProject' ? (
          <MultiSelect
            label="Services"
            options={services.map((v) => ({ value: v, label: v }))}
            value={s.services.filter((v) => services.includes(v))}
            onChange={(v) => setSettings({ services: v })}
          />
        ) : null}

        {s.groupBy === 'projectLabel' ? (
          <FormControl required>
            <FormControl.Label>Project label</FormControl.Label>
            <Select
              block
              value={s.projectLabel}
              onChange={(e) => setSettings({ projectLabel: e.target.value })}
              validationStatus={errors.projectLabel ? 'error' : undefined}
            >
              <Select.Option value="" disabled>
                Choose a project label
              </Select.Option>
              {projectLabels.map((k) => (
                <Select.Option key={k} value={k}>
                  {visibleLabel(k)}
                </Select.Option>
              ))}
            </Select>
            {errors.projectLabel ? <FormControl.Validation variant="error">{errors.projectLabel}</FormControl.Validation> : null}
          </FormControl>
        ) : null}

        {s.groupBy === 'resourceLabel' ? (
          <FormControl required>
            <FormControl.Label>Resource label</FormControl.Label>
            <Select
              block
              value={s.resourceLabel}
              onChange={(e) => setSettings({ resourceLabel: e.target.value })}
              validationStatus={errors.resourceLabel ? 'error' : undefined}
            >
              <Select.Option value="" disabled>
                Choose a resource label
              </Select.Option>
              {resourceLabels.map(([k, values]) => (
                <Select.Option key={k} value={k} disabled={values.length === 0}>
                  {values.length === 0 ? `${visibleLabel(k)} (not applicable)` : visibleLabel(k)}
                </Select.Option>
              ))}
            </Select>
            {errors.resourceLabel ? <FormControl.Validation variant="error">{errors.resourceLabel}</FormControl.Validation> : null}
          </FormControl>
        ) : null}

        {/* Every figure of the dashboard and its export follows this choice (docs/decisions-billing.md). */}
        <RadioGroup name="costBasis" onChange={(v) => setSettings({ costBasis: (v ?? 'billed') as CostBasis })}>
          <RadioGroup.Label>Cost basis</RadioGroup.Label>
          {COST_BASES.map((b) => (
            <FormControl key={b} id={`billing-cost-basis-${b}`}>
              <Radio value={b} checked={s.costBasis === b} />
              <FormControl.Label>{COST_BASIS_LABELS[b]}</FormControl.Label>
              <FormControl.Caption>{COST_BASIS_MEANINGS[b]}</FormControl.Caption>
            </FormControl>
          ))}
        </RadioGroup>

        <FormControl>
          <Checkbox checked={draft.selected.showSpendSum} onChange={(e) => setSelected({ showSpendSum: e.target.checked })} />
          <FormControl.Label>Show spend sum</FormControl.Label>
        </FormControl>

        <FormControl>
          <Checkbox checked={draft.selected.historicalData} onChange={(e) => setSelected({ historicalData: e.target.checked })} />
          <FormControl.Label>Historical data</FormControl.Label>
          <FormControl.Caption>Lists the earlier months in the discount summary.</FormControl.Caption>
        </FormControl>

        <FormControl>
          <FormControl.Label>Top</FormControl.Label>
          <Select block value={String(draft.selected.top)} onChange={(e) => setSelected({ top: Number(e.target.value) as TopN })}>
            {TOP_NS.map((n) => (
              <Select.Option key={n} value={String(n)}>
                {topLabel(n)}
              </Select.Option>
            ))}
          </Select>
        </FormControl>
        {/* Enter in a field saves, like the Save button. */}
        <button type="submit" hidden />
      </form>
    </Dialog>
  );
}
