import { useEffect } from 'react';
import { AppRouter } from '../AppRouter.tsx';
import { Header } from './Header.tsx';
import { SideMenu } from './SideMenu.tsx';
import { LoggingErrorBoundary } from '../LoggingErrorBoundary.tsx';
import { PendingMutationsIndicator } from './PendingMutationsIndicator.tsx';
import { SELECTED_CUSTOMER_COOKIE, readCookie, writeCookie } from '../../common/cookies.ts';
import { useSelectedCustomer } from '../selection/useCustomerContext.ts';
import { useSelectionFromLink } from '../selection/useSelectionFromLink.ts';
import { useTokenRefresh } from '../../features/session/useTokenRefresh.ts';
import styles from './AppShell.module.css';

/** The signed-in app: header, side menu and the routed content inside an error boundary. */
export function AppShell() {
  useTokenRefresh();
  useSelectionFromLink();
  useStoredCustomerSelection();
  return (
    <div className={styles.shell}>
      <a href="#content" className={styles.skip}>
        Skip to content
      </a>
      <Header />
      <div className={styles.menu}>
        <SideMenu />
      </div>
      <main id="content" className={styles.content} tabIndex={-1}>
        <LoggingErrorBoundary>
          <AppRouter />
        </LoggingErrorBoundary>
      </main>
      <PendingMutationsIndicator />
    </div>
  );
}

/** When the stored selection is missing or not one of the user's customers, store the one in use (spec 001 §4). */
function useStoredCustomerSelection() {
  const { selected } = useSelectedCustomer();
  useEffect(() => {
    if (selected && readCookie(SELECTED_CUSTOMER_COOKIE) !== selected.id) writeCookie(SELECTED_CUSTOMER_COOKIE, selected.id);
  }, [selected]);
}
