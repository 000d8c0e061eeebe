import { useCallback } from 'react';
import { useStore } from 'react-redux';
import type { RootState } from '../../app/store.ts';
import { useAppDispatch } from '../../app/hooks.ts';
import { SELECTED_CUSTOMER_COOKIE, deleteCookie } from '../../common/cookies.ts';
import { useLogoutMutation, useSignOutEverywhereMutation } from './sessionApi.ts';
import { sessionEnded } from './sessionSlice.ts';
import { clearStoredData } from './token-storage.ts';

/**
 * Sign-out (spec 001 §2.1 /logout, §4): ends the session on the api (which clears the token cookie), clears stored
 * data (local storage and the selectedCustomer cookie) and reloads at '/', where the login page shows.
 * `everywhere` ends every session of the user, on every device.
 */
export function useSignOut(): (opts?: { everywhere?: boolean }) => Promise<void> {
  const dispatch = useAppDispatch();
  const store = useStore<RootState>();
  const [logout] = useLogoutMutation();
  const [endAll] = useSignOutEverywhereMutation();
  return useCallback(async (opts?: { everywhere?: boolean }) => {
    if (store.getState().session.status !== 'anonymous') {
      // already invalid: nothing to end
      await (opts?.everywhere ? endAll() : logout()).unwrap().catch(() => undefined);
    }
    clearStoredData();
    deleteCookie(SELECTED_CUSTOMER_COOKIE);
    dispatch(sessionEnded({ notice: null }));
    window.location.replace('/');
  }, [dispatch, logout, endAll, store]);
}
