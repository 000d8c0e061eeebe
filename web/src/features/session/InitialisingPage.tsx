import { useEffect, useRef } from 'react';
import { Button, Spinner } from '@primer/react';
import { CLAIMS_RELOAD_MS, MESSAGES } from '@cc/shared/constants.ts';
import { Page, PageMessage } from '../../common/Page.tsx';
import { useRefreshTokenMutation, useSetClaimsMutation } from './sessionApi.ts';
import { useSignOut } from './useSignOut.ts';

/**
 * Shown while the user's claims are missing or carry no permissions (spec 000 §2). Asks the api to
 * initialise the claims once, then re-reads them every 6 s until they arrive; the app then replaces
 * this page by itself.
 */
export function InitialisingPage() {
  const [setClaims] = useSetClaimsMutation();
  const [refresh] = useRefreshTokenMutation();
  const signOut = useSignOut();
  const asked = useRef(false);

  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    void setClaims()
      .unwrap()
      .then(() => refresh())
      .catch(() => undefined); // the 6 s re-check below keeps trying
  }, [setClaims, refresh]);

  useEffect(() => {
    const timer = window.setInterval(() => void refresh(), CLAIMS_RELOAD_MS);
    return () => window.clearInterval(timer);
  }, [refresh]);

  return (
    <Page title="CommandCenter">
      <PageMessage>{MESSAGES.initialising}</PageMessage>
      <Spinner size="small" srText={null} />
      <div>
        {/* Not stuck here: another account can sign in meanwhile. */}
        <Button onClick={() => void signOut()}>Logout</Button>
      </div>
    </Page>
  );
}
