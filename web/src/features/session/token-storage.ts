import type { Claims } from '@cc/shared/claims.ts';

/**
 * The access token is never kept where a script can read and steal it: the api sets it as an httpOnly cookie at
 * sign-in and refresh, and the browser sends it by itself. What is kept in localStorage is only a hint that a
 * session may exist, with its claims and end: not a credential, it only decides whether the app asks the api at
 * start-up, and what to show while the api cannot be reached.
 */
export const SESSION_HINT_KEY = 'session';
/** Where earlier versions kept the bearer token: removed wherever it is still found. */
const LEGACY_TOKEN_KEY = 'token';

export interface SessionHint {
  claims: Claims | null;
  /** When the last token issued ends (ms since epoch). */
  expires: number;
}

export function loadSessionHint(now = Date.now()): SessionHint | null {
  try {
    window.localStorage.removeItem(LEGACY_TOKEN_KEY);
    const raw = window.localStorage.getItem(SESSION_HINT_KEY);
    if (!raw) return null;
    const hint = JSON.parse(raw) as Partial<SessionHint>;
    if (typeof hint.expires !== 'number' || hint.expires <= now) return null;
    return { claims: hint.claims ?? null, expires: hint.expires };
  } catch {
    return null; // storage disabled (private mode, policy) or unreadable: the user signs in each visit
  }
}

export function saveSessionHint(claims: Claims | null, expiresInSeconds: number, now = Date.now()): void {
  try {
    window.localStorage.setItem(SESSION_HINT_KEY, JSON.stringify({ claims, expires: now + expiresInSeconds * 1000 } satisfies SessionHint));
  } catch {
    /* see loadSessionHint */
  }
}

export function removeSessionHint(): void {
  try {
    window.localStorage.removeItem(SESSION_HINT_KEY);
  } catch {
    /* see loadSessionHint */
  }
}

/** Sign-out clears every locally stored value (spec 001 §4), not only the hint. */
export function clearStoredData(): void {
  try {
    window.localStorage.clear();
  } catch {
    /* see loadSessionHint */
  }
}
