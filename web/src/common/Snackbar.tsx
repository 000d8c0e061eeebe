import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { IconButton } from '@primer/react';
import { XIcon } from '@primer/octicons-react';
import { SNACKBAR_MS } from '@cc/shared/constants.ts';
import styles from './Snackbar.module.css';

export type SnackbarVariant = 'info' | 'success' | 'error';

export interface SnackbarMessage {
  message: string;
  variant?: SnackbarVariant;
}

interface Shown extends Required<SnackbarMessage> {
  id: number;
}

interface SnackbarApi {
  /** Shows a message bottom right for 3000 ms (spec 000 §8); a newer message replaces it. */
  show: (message: SnackbarMessage) => void;
}

const SnackbarContext = createContext<SnackbarApi | null>(null);

/** Provides `useSnackbar()` to the screens and renders the one snackbar. */
export function SnackbarProvider({ children }: { children: ReactNode }) {
  const [shown, setShown] = useState<Shown | null>(null);
  const show = useCallback(({ message, variant = 'info' }: SnackbarMessage) => {
    setShown((prev) => ({ id: (prev?.id ?? 0) + 1, message, variant }));
  }, []);
  const value = useMemo(() => ({ show }), [show]);

  useEffect(() => {
    if (!shown) return;
    const timer = window.setTimeout(() => setShown(null), SNACKBAR_MS);
    return () => window.clearTimeout(timer);
  }, [shown]);

  return (
    <SnackbarContext.Provider value={value}>
      {children}
      {/* The live region stays mounted so screen readers announce each new message. */}
      <div role="status" aria-live="polite" className={styles.region}>
        {shown ? (
          <div key={shown.id} className={styles.snackbar} data-variant={shown.variant}>
            <span className={styles.message}>{shown.message}</span>
            <IconButton icon={XIcon} aria-label="Dismiss" variant="invisible" size="small" className={styles.dismiss} onClick={() => setShown(null)} />
          </div>
        ) : null}
      </div>
    </SnackbarContext.Provider>
  );
}

/** `const { show } = useSnackbar(); show({ message: 'Comment saved', variant: 'success' })`. */
export function useSnackbar(): SnackbarApi {
  const api = useContext(SnackbarContext);
  if (!api) throw new Error('useSnackbar must be used inside <SnackbarProvider>');
  return api;
}
