import { useState, type ReactNode } from 'react';
import { Heading } from '@primer/react';
import { clsx } from 'clsx';
import styles from './Licenses.module.css';

const LEAVE_MS = 200;

/**
 * A card that slides in when shown and out before `onGone` (spec 001 §2.12). Children get `leave(then)`: the card
 * slides out, then `then` runs (close the card, go back to the list).
 */
export function SlideCard({ title, children }: { title: string; children: (leave: (then: () => void) => void) => ReactNode }) {
  const [leaving, setLeaving] = useState(false);
  const leave = (then: () => void) => {
    setLeaving(true);
    window.setTimeout(then, LEAVE_MS);
  };
  return (
    <section className={clsx(styles.card, leaving && styles.leaving)} aria-label={title}>
      <Heading as="h2" className={styles.cardTitle}>
        {title}
      </Heading>
      {children(leave)}
    </section>
  );
}
