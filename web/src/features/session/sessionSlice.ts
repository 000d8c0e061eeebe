import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { Claims } from '@cc/shared/claims.ts';

/**
 * - `anonymous`: nobody signed in, the login page shows.
 * - `checking`: a token is held but not yet confirmed by the api (start-up, social sign-in).
 * - `signedIn`: the api answered with this token and these claims.
 */
export type SessionStatus = 'anonymous' | 'checking' | 'signedIn';

export interface SessionState {
  token: string | null;
  /** null while the account is being initialised (spec 000 §2). */
  claims: Claims | null;
  status: SessionStatus;
  /** A message for the login page about why the session ended; null for an ordinary sign-out. */
  notice: string | null;
}

export const initialSessionState: SessionState = { token: null, claims: null, status: 'anonymous', notice: null };

/** State for a page load that found a stored token: it is checked before the app shows. */
export function sessionFromStoredToken(token: string | null): SessionState {
  return token ? { ...initialSessionState, token, status: 'checking' } : initialSessionState;
}

export const sessionSlice = createSlice({
  name: 'session',
  initialState: initialSessionState,
  reducers: {
    /** The api issued a token (login, refresh, start-up check). */
    tokenIssued(state, action: PayloadAction<{ token: string; claims: Claims | null }>) {
      state.token = action.payload.token;
      state.claims = action.payload.claims;
      state.status = 'signedIn';
      state.notice = null;
    },
    /** A token arrived from elsewhere (the social sign-in popup); its claims are fetched next. */
    tokenReceived(state, action: PayloadAction<{ token: string }>) {
      state.token = action.payload.token;
      state.claims = null;
      state.status = 'checking';
      state.notice = null;
    },
    /** The api could not be reached at start-up: trust the claims signed into the token for now. */
    storedClaimsUsed(state, action: PayloadAction<{ claims: Claims | null }>) {
      state.claims = action.payload.claims;
      state.status = 'signedIn';
    },
    /** Sign-out, a 401 from any call, or an account that cannot use the app. */
    sessionEnded(state, action: PayloadAction<{ notice: string | null }>) {
      state.token = null;
      state.claims = null;
      state.status = 'anonymous';
      state.notice = action.payload.notice;
    },
    noticeDismissed(state) {
      state.notice = null;
    },
  },
});

export const { tokenIssued, tokenReceived, storedClaimsUsed, sessionEnded, noticeDismissed } = sessionSlice.actions;
