import { useEffect, useRef } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { PageLoading } from '../../common/Page.tsx';
import { SELECTED_CUSTOMER_COOKIE, deleteCookie } from '../../common/cookies.ts';
import { useLogoutMutation } from './sessionApi.ts';
import { sessionEnded } from './sessionSlice.ts';
import { clearStoredData } from './token-storage.ts';

/**
 * /logout (spec 001 §2.1, §4): revokes the token, clears stored data (local storage, the
 * selectedCustomer cookie) and reloads at '/', where the login page shows.
 */
export function LogoutPage() {
  const dispatch = useAppDispatch();
  const token = useAppSelector((s) => s.session.token);
  const [logout] = useLogoutMutation();
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const revoke = token ? logout({ token }).unwrap().catch(() => undefined) : Promise.resolve();
    void revoke.finally(() => {
      clearStoredData();
      deleteCookie(SELECTED_CUSTOMER_COOKIE);
      dispatch(sessionEnded({ notice: null }));
      window.location.replace('/');
    });
  }, [dispatch, logout, token]);

  return <PageLoading label="Signing out" />;
}
