import { useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import { AppRouter } from '../AppRouter.tsx';
import { Header } from './Header.tsx';
import { SideMenu } from './SideMenu.tsx';
import { LoggingErrorBoundary } from '../LoggingErrorBoundary.tsx';
import { PendingMutationsIndicator } from './PendingMutationsIndicator.tsx';
import { SELECTED_CUSTOMER_COOKIE, readCookie, writeCookie } from '../../common/cookies.ts';
import { useSelectedCustomer } from '../selection/useCustomerContext.ts';
import { useSelectionFromLink } from '../selection/useSelectionFromLink.ts';
import { useTokenRefresh } from '../../features/session/useTokenRefresh.ts';
import { useMediaQuery } from '../../common/useMediaQuery.ts';
import styles from './AppShell.module.css';

/** Below this width the side menu folds behind the header's menu button (a phone, a tablet upright). */
export const NARROW_QUERY = '(max-width: 48rem)';

/** The signed-in app: header, side menu and the routed content inside an error boundary. */
export function AppShell() {
  useTokenRefresh();
  useSelectionFromLink();
  useStoredCustomerSelection();
  const narrow = useMediaQuery(NARROW_QUERY);
  const [menuOpen, setMenuOpen] = useState(false);
  const [location] = useLocation();
  // a choice in the folded menu opens the page: the menu closes so the page is what shows
  useEffect(() => setMenuOpen(false), [location]);
  const menuShown = !narrow || menuOpen;
  return (
    <div className={styles.shell}>
      <a href="#content" className={styles.skip}>
        Skip to content
      </a>
      <Header menu={narrow ? { open: menuOpen, controls: 'side-menu', onToggle: () => setMenuOpen((v) => !v) } : undefined} />
      <div id="side-menu" className={styles.menu} hidden={!menuShown}>
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
