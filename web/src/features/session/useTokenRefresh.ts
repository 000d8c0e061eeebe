import { useEffect } from 'react';
import { TOKEN_REFRESH_MS } from '@cc/shared/constants.ts';
import { useRefreshTokenMutation } from './sessionApi.ts';

/** Refreshes the token every 3,540,000 ms while signed in (spec 001 §4, §9); a 401 ends the session. */
export function useTokenRefresh(intervalMs: number = TOKEN_REFRESH_MS): void {
  const [refresh] = useRefreshTokenMutation();
  useEffect(() => {
    const timer = window.setInterval(() => void refresh(), intervalMs);
    return () => window.clearInterval(timer);
  }, [refresh, intervalMs]);
}
