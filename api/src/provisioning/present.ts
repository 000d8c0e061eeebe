import type { ProjectRequestRow } from '@cc/shared/db/provisioning.ts';
import { STEP_LABELS } from '@cc/shared/provisioning/rules.ts';
import type { ProjectRecord } from '@cc/shared/schemas/provisioning.ts';

/** A request as the list shows it: the step a Creating row is at, or the one a Failed row stopped at. */
export function toRecord(r: ProjectRequestRow): ProjectRecord {
  const step = r.state === 'Creating' ? r.current_step : r.state === 'Failed' ? r.failed_step : null;
  return { ...r, step_label: step ? STEP_LABELS[step] : null, budget_note: budgetNote(r) };
}

/**
 * How the budget was set, read from the budget step's log entry (`{budget name}: {note}`) once the step is done:
 * the Budgets API takes the billing account's currency, which may differ from the portal's, so the request says
 * which amount and rate were used.
 */
export function budgetNote(r: Pick<ProjectRequestRow, 'step_log'>): string | null {
  const done = [...r.step_log].reverse().find((e) => e.step === 'budget' && e.outcome === 'done');
  if (!done) return null;
  const at = done.detail.indexOf(': ');
  return at >= 0 ? done.detail.slice(at + 2) : done.detail;
}
