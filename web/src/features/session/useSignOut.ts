import { useCallback } from 'react';
import { useStore } from 'react-redux';
import type { RootState } from '../../app/store.ts';
import { useAppDispatch } from '../../app/hooks.ts';
import { SELECTED_CUSTOMER_COOKIE, deleteCookie } from '../../common/cookies.ts';
import { useLogoutMutation } from './sessionApi.ts';
import { sessionEnded } from './sessionSlice.ts';
import { clearStoredData } from './token-storage.ts';

/**
 * Sign-out (spec 001 §2.1 /logout, §4): revokes the token, clears stored data (local storage and
 * the selectedCustomer cookie) and reloads at '/', where the login page shows.
 */
export function useSignOut(): () => Promise<void> {
  const dispatch = useAppDispatch();
  const store = useStore<RootState>();
  const [logout] = useLogoutMutation();
  return useCallback(async () => {
    const token = store.getState().session.token;
    if (token) await logout({ token }).unwrap().catch(() => undefined); // already invalid: nothing to revoke
    clearStoredData();
    deleteCookie(SELECTED_CUSTOMER_COOKIE);
    dispatch(sessionEnded({ notice: null }));
    window.location.replace('/');
  }, [dispatch, logout, store]);
}
