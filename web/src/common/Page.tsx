import { useEffect, type ReactNode } from 'react';
import { Heading, Spinner } from '@primer/react';
import styles from './Page.module.css';

const PRODUCT = 'CommandCenter';

/** Sets the browser tab title to "{title} · CommandCenter". */
export function useDocumentTitle(title: string | undefined): void {
  useEffect(() => {
    document.title = title ? `${title} · ${PRODUCT}` : PRODUCT;
  }, [title]);
}

export interface PageProps {
  /** The page heading (h1); also the browser tab title. */
  title: string;
  /** A line under the heading, e.g. 'for {customer} is disabled'. */
  subtitle?: ReactNode;
  children?: ReactNode;
}

/** The frame of every screen: an h1 heading, an optional subtitle, then the content. */
export function Page({ title, subtitle, children }: PageProps) {
  useDocumentTitle(title);
  return (
    <section className={styles.page} aria-labelledby="page-title">
      <div>
        <Heading as="h1" id="page-title" className={styles.title}>
          {title}
        </Heading>
        {subtitle ? <p className={styles.subtitle}>{subtitle}</p> : null}
      </div>
      {children}
    </section>
  );
}

/** A muted sentence shown in place of a screen's content. */
export function PageMessage({ children }: { children: ReactNode }) {
  return <p className={styles.message}>{children}</p>;
}

/** A centred spinner while a page's data loads. */
export function PageLoading({ label = 'Loading' }: { label?: string }) {
  return (
    <div className={styles.center}>
      <Spinner srText={label} />
    </div>
  );
}
