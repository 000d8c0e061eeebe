import { Spinner } from '@primer/react';
import { clsx } from 'clsx';
import styles from './SavingIndicator.module.css';

export interface SavingIndicatorProps {
  /** Shown while true. */
  saving: boolean;
  /** Float over the page (top centre) instead of sitting in the flow. */
  floating?: boolean;
}

/** "A page shows a saving indicator while work is in progress" (spec 001 §2.14). */
export function SavingIndicator({ saving, floating = false }: SavingIndicatorProps) {
  if (!saving) return null;
  return (
    <div role="status" aria-label="Saving" className={clsx(styles.saving, floating && styles.floating)}>
      <Spinner size="small" srText={null} />
      <span aria-hidden="true">Saving…</span>
    </div>
  );
}
