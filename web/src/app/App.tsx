import { lazy, Suspense, useEffect, useLayoutEffect, useRef } from 'react';
import { useLocation, useRoute } from 'wouter';
import { MESSAGES } from '@cc/shared/constants.ts';
import { useAppDispatch, useAppSelector } from './hooks.ts';
import { AppShell } from './shell/AppShell.tsx';
import { INVITATION_ROUTE, KIOSK_ROUTE } from './routes.ts';
import { PageLoading } from '../common/Page.tsx';
import { NoAccessPage } from '../common/StatusPages.tsx';
import type { Role } from '@cc/shared/permissions.ts';
import { LoggingErrorBoundary } from './LoggingErrorBoundary.tsx';
import { InitialisingPage } from '../features/session/InitialisingPage.tsx';
import { useLogoutMutation } from '../features/session/sessionApi.ts';
import { sessionEnded } from '../features/session/sessionSlice.ts';
import { confirmSession } from './session-check.ts';
import styles from './App.module.css';

/**
 * The sign-in page is fetched when shown, not with the shell: its form fields (Primer's FormControl, which imports
 * every input kind it recognises, SelectPanel and Autocomplete with their virtualised lists among them) would
 * otherwise weigh on every signed-in page's first load.
 */
const LoginPage = lazy(() => import('../features/session/LoginPage.tsx').then((m) => ({ default: m.LoginPage })));
function SignIn() {
  return (
    <Suspense fallback={<PageLoading />}>
      <LoginPage />
    </Suspense>
  );
}

/**
 * Decides what the whole window shows (spec 001 §2.1, 000 §2): the login page when nobody is signed
 * in or the user has no customers, the initialising message while claims carry no permissions,
 * otherwise the app.
 */
export function App() {
  const session = useAppSelector((s) => s.session);
  useConfirmToken();
  useEndSessionWithoutCustomers();
  useAdminLanding();
  const [location, navigate] = useLocation();

  // After signing in again, /logout must not sign the user straight out.
  const anonymous = session.status === 'anonymous';
  useEffect(() => {
    if (anonymous && location === '/logout') navigate('/', { replace: true });
  }, [anonymous, location, navigate]);

  // Public: an invited user sets a password before they can sign in.
  const [onInvitation, invitationParams] = useRoute(INVITATION_ROUTE.path);
  const [onKiosk, kioskParams] = useRoute(KIOSK_ROUTE.path);
  if (onInvitation && INVITATION_ROUTE.page) {
    const InvitationScreen = INVITATION_ROUTE.page;
    return (
      <Suspense fallback={<PageLoading />}>
        <InvitationScreen route={INVITATION_ROUTE} params={invitationParams} />
      </Suspense>
    );
  }

  if (session.status === 'anonymous') return <SignIn />;
  if (session.status === 'checking') {
    return (
      <div className={styles.boot}>
        <PageLoading />
      </div>
    );
  }
  const claims = session.claims;
  if (!claims || claims.perms.length === 0) {
    return (
      <main className={styles.boot}>
        <InitialisingPage />
      </main>
    );
  }
  if (claims.customer_count === 0) return <SignIn />;
  // The System Health iframe's page: the dashboard alone, no header or menu around it.
  if (onKiosk && KIOSK_ROUTE.page) {
    const KioskScreen = KIOSK_ROUTE.page;
    return (
      <LoggingErrorBoundary padded>
        <Suspense fallback={<PageLoading />}>
          {KIOSK_ROUTE.gate({ perms: claims.perms, role: claims.role as Role, admin: claims.admin, customer: null }) ? (
            <KioskScreen route={KIOSK_ROUTE} params={kioskParams} />
          ) : (
            <NoAccessPage title={KIOSK_ROUTE.title} />
          )}
        </Suspense>
      </LoggingErrorBoundary>
    );
  }
  // The content area has its own boundary; this one keeps a crash in the header or menu off a blank page.
  return (
    <LoggingErrorBoundary padded>
      <AppShell />
    </LoggingErrorBoundary>
  );
}

/** The admin's landing page: the operations inbox across every customer (docs/decisions-operations.md). */
export const ADMIN_LANDING = '/operations';

/**
 * After a sign-in on the app's root, an admin lands on the operations inbox; customers and viewers stay on the root
 * (the Billing dashboard). Only a sign-in in this window counts: a reload of `/`, a link to it or the Billing menu
 * item keep showing the dashboard, and a sign-in reached from a deep link stays on that link.
 */
function useAdminLanding() {
  const session = useAppSelector((s) => s.session);
  const [location, navigate] = useLocation();
  const signingIn = useRef(false);
  const ready = session.status === 'signedIn' && !!session.claims && session.claims.perms.length > 0;
  const admin = ready && session.claims!.admin;

  // before the first paint of the signed-in app, so the dashboard neither flashes nor takes a click meant for the inbox
  useLayoutEffect(() => {
    if (session.status === 'anonymous') {
      signingIn.current = true;
      return;
    }
    if (!ready || !signingIn.current) return;
    signingIn.current = false;
    if (admin && location === '/') navigate(ADMIN_LANDING, { replace: true });
  }, [session.status, ready, admin, location, navigate]);
}

/** A session not yet confirmed (start-up, social sign-in): refresh it (the cookie) to learn the current claims. */
function useConfirmToken() {
  const dispatch = useAppDispatch();
  const status = useAppSelector((s) => s.session.status);
  const epoch = useAppSelector((s) => s.session.epoch);

  useEffect(() => {
    // At start-up main.tsx has already sent it: this joins the check in flight.
    if (status === 'checking') void confirmSession(dispatch, epoch);
  }, [status, epoch, dispatch]);
}

/** A user with no customers cannot use the app (spec 001 §2.1): sign out and say why. */
function useEndSessionWithoutCustomers() {
  const dispatch = useAppDispatch();
  const session = useAppSelector((s) => s.session);
  const [logout] = useLogoutMutation();
  const noCustomers = session.status === 'signedIn' && !!session.claims && session.claims.perms.length > 0 && session.claims.customer_count === 0;

  useEffect(() => {
    if (!noCustomers) return;
    // The login page already shows (App); end the session once the api has ended it.
    void logout()
      .unwrap()
      .catch(() => undefined)
      .finally(() => dispatch(sessionEnded({ notice: MESSAGES.contactAdmin })));
  }, [noCustomers, logout, dispatch]);
}
