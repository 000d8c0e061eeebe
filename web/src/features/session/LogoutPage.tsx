import { useEffect, useRef } from 'react';
import { PageLoading } from '../../common/Page.tsx';
import { useSignOut } from './useSignOut.ts';

/** /logout: signs out, then reloads at '/'. */
export function LogoutPage() {
  const signOut = useSignOut();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void signOut();
  }, [signOut]);
  return <PageLoading label="Signing out" />;
}
