import type { ProjectState } from '@cc/shared/provisioning/rules.ts';
import type { ProjectRecord } from '@cc/shared/schemas/provisioning.ts';

/** The provider admin's decisions on the selected rows (docs/decisions-provisioning.md, The approval call). */
export type Decision = 'approve' | 'reject' | 'retry';

export interface DecisionText {
  button: string;
  /** The states a row must be in; the others are left as they are (the api refuses them too). */
  from: readonly ProjectState[];
  /** How the toast names rows in none of them. */
  notFrom: string;
  /** The dialog's title; approve's is the spec's text (000 §4). */
  title: (n: number) => string;
  done: (n: number) => string;
  error: string;
}

export const DECISIONS: Record<Decision, DecisionText> = {
  approve: {
    button: 'Approve',
    from: ['Pending approval'],
    notFrom: 'pending',
    title: (n) => `Please confirm to approve the following ${n} projects`,
    done: (n) => `${n} project(s) approved`,
    error: 'Error approving Projects',
  },
  reject: {
    button: 'Reject',
    from: ['Pending approval', 'Failed'],
    notFrom: 'pending or failed',
    title: (n) => `Please confirm to reject the following ${n} projects`,
    done: (n) => `${n} project(s) rejected`,
    error: 'Error rejecting Projects',
  },
  retry: {
    button: 'Retry',
    from: ['Failed'],
    notFrom: 'failed',
    title: (n) => `Please confirm to retry the following ${n} projects`,
    done: (n) => `${n} project(s) retried from the step that failed`,
    error: 'Error retrying Projects',
  },
};

/** What the toast says after a decision: how many moved, and how many were not in the state it needs. */
export function decisionMessage(d: Decision, moved: number, refused: number): string {
  const text = DECISIONS[d];
  const notMoved = refused > 0 ? `; ${refused} not ${text.notFrom}, left as they are` : '';
  return `${text.done(moved)}${notMoved}`;
}

/** The selected rows a decision applies to (Approve: pending ones; Reject: pending or failed; Retry: failed). */
export const applicable = (d: Decision, rows: readonly ProjectRecord[]) => rows.filter((p) => DECISIONS[d].from.includes(p.state));
