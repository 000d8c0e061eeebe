import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { Claims } from '@cc/shared/claims.ts';
import type { SessionHint } from './token-storage.ts';

/**
 * - `anonymous`: nobody signed in, the login page shows.
 * - `checking`: a session may exist (start-up, social sign-in) but the api has not confirmed it yet.
 * - `signedIn`: the api answered with these claims.
 *
 * The token itself is not here: it is an httpOnly cookie the browser sends, out of any script's reach.
 */
export type SessionStatus = 'anonymous' | 'checking' | 'signedIn';

export interface SessionState {
  /** null while the account is being initialised (spec 000 §2). */
  claims: Claims | null;
  status: SessionStatus;
  /** A message for the login page about why the session ended; null for an ordinary sign-out. */
  notice: string | null;
  /** Counts sign-outs: an answer to a request sent before the last one must not sign the user back in. */
  epoch: number;
}

export const initialSessionState: SessionState = { claims: null, status: 'anonymous', notice: null, epoch: 0 };

/** State for a page load: with a hint of a session it is checked (a refresh) before the app shows. */
export function sessionFromHint(hint: SessionHint | null): SessionState {
  return hint ? { ...initialSessionState, status: 'checking' } : initialSessionState;
}

export const sessionSlice = createSlice({
  name: 'session',
  initialState: initialSessionState,
  reducers: {
    /** The api issued a token (login, refresh, start-up check); it is in the cookie, its claims are here. */
    tokenIssued(state, action: PayloadAction<{ claims: Claims | null; expiresIn: number }>) {
      state.claims = action.payload.claims;
      state.status = 'signedIn';
      state.notice = null;
    },
    /** The social sign-in popup says the api set the cookie; the claims are fetched next. */
    tokenReceived(state) {
      state.claims = null;
      state.status = 'checking';
      state.notice = null;
    },
    /** The api could not be reached at start-up: trust the claims of the last answer for now. */
    storedClaimsUsed(state, action: PayloadAction<{ claims: Claims | null }>) {
      state.claims = action.payload.claims;
      state.status = 'signedIn';
    },
    /** Sign-out, a 401 from any call, or an account that cannot use the app. */
    sessionEnded(state, action: PayloadAction<{ notice: string | null }>) {
      state.claims = null;
      state.status = 'anonymous';
      state.notice = action.payload.notice;
      state.epoch += 1;
    },
    noticeDismissed(state) {
      state.notice = null;
    },
  },
});

export const { tokenIssued, tokenReceived, storedClaimsUsed, sessionEnded, noticeDismissed } = sessionSlice.actions;
