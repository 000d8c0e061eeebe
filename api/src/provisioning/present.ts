import type { ProjectRequestRow } from '@cc/shared/db/provisioning.ts';
import { STEP_LABELS } from '@cc/shared/provisioning/rules.ts';
import type { ProjectRecord } from '@cc/shared/schemas/provisioning.ts';

/** A request as the list shows it: the step a Creating row is at, or the one a Failed row stopped at. */
export function toRecord(r: ProjectRequestRow): ProjectRecord {
  const step = r.state === 'Creating' ? r.current_step : r.state === 'Failed' ? r.failed_step : null;
  return { ...r, step_label: step ? STEP_LABELS[step] : null };
}
