import type { Claims } from '@cc/shared/claims.ts';

/** Spec 001 §3: "the login token stored locally". */
export const TOKEN_STORAGE_KEY = 'token';

export function loadToken(): string | null {
  try {
    return window.localStorage.getItem(TOKEN_STORAGE_KEY);
  } catch {
    return null; // storage disabled (private mode, policy): the user signs in each visit
  }
}

export function saveToken(token: string): void {
  try {
    window.localStorage.setItem(TOKEN_STORAGE_KEY, token);
  } catch {
    /* see loadToken */
  }
}

export function removeToken(): void {
  try {
    window.localStorage.removeItem(TOKEN_STORAGE_KEY);
  } catch {
    /* see loadToken */
  }
}

/** Sign-out clears every locally stored value (spec 001 §4), not only the token. */
export function clearStoredData(): void {
  try {
    window.localStorage.clear();
  } catch {
    /* see loadToken */
  }
}

interface TokenPayload {
  claims?: Claims | null;
  exp?: number;
}

/**
 * Reads the claims the api signed into the token, without verifying it (the server does that on
 * every call). Used only when the api cannot be reached at start-up; null when expired or unreadable.
 */
export function readTokenClaims(token: string, now = Date.now()): { claims: Claims | null } | null {
  try {
    const part = token.split('.')[1];
    if (!part) return null;
    const json = atob(part.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = Uint8Array.from(json, (c) => c.charCodeAt(0));
    const payload = JSON.parse(new TextDecoder().decode(bytes)) as TokenPayload;
    if (!payload.exp || payload.exp * 1000 <= now) return null;
    return { claims: payload.claims ?? null };
  } catch {
    return null;
  }
}
