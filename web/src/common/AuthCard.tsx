import type { ReactNode } from 'react';
import { Heading } from '@primer/react';
import styles from './AuthCard.module.css';

/** The centred card of the screens reached without a session (sign-in, invitation): brand, optional title, content. */
export function AuthCard({ title, children }: { title?: string; children: ReactNode }) {
  return (
    <main className={styles.screen}>
      <div className={styles.card}>
        <Heading as="h1" className={styles.brand}>
          CommandCenter
        </Heading>
        {title ? (
          <Heading as="h2" className={styles.title}>
            {title}
          </Heading>
        ) : null}
        {children}
      </div>
    </main>
  );
}

/** The form layout inside an AuthCard. */
export const authFormClass = styles.form;
