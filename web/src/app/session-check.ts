/**
 * The start-up session check (POST /v1/auth/refresh: the cookie's session, and the current claims), one at a time.
 * The app shows its boot spinner until it answers, so main.tsx sends it as the app starts, beside the billing home's
 * preloaded requests (preload.ts), rather than from the first render's effect, which came ~100 ms later (after
 * React's first render; measured in a Chromium trace of a warm load). App's `useConfirmToken` calls the same function
 * and gets the check in flight instead of a second one.
 */
import { sessionApi } from '../features/session/sessionApi.ts';
import { sessionEnded, storedClaimsUsed } from '../features/session/sessionSlice.ts';
import { loadSessionHint } from '../features/session/token-storage.ts';
import type { AppDispatch } from './store.ts';

let inFlight: { epoch: number; done: Promise<void> } | null = null;

/**
 * Refreshes the session of `epoch` (session.epoch: a sign-out starts a new one) unless a check of it is in flight.
 * A 401 has already ended the session (api.ts); an unreachable api keeps the claims of the last answer, if its token
 * is still valid.
 */
export function confirmSession(dispatch: AppDispatch, epoch: number): Promise<void> {
  if (inFlight?.epoch === epoch) return inFlight.done;
  const check = dispatch(sessionApi.endpoints.refreshToken.initiate());
  const done = check
    .unwrap()
    .then(
      () => undefined,
      (error: { status?: unknown }) => {
        if (error.status === 401) return;
        const stored = loadSessionHint();
        dispatch(stored ? storedClaimsUsed({ claims: stored.claims }) : sessionEnded({ notice: null }));
      },
    )
    .finally(() => {
      check.reset();
      // a later social sign-in in this epoch is checked again
      if (inFlight?.done === done) inFlight = null;
    });
  inFlight = { epoch, done };
  return done;
}
