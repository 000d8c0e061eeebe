import { useEffect } from 'react';
import { useAppDispatch } from '../../app/hooks.ts';
import { api } from '../../app/api.ts';

/**
 * Live user list (spec 001 §2.7, 000 §2 "users with live updates"): the api's server-sent events say
 * which users changed, and the lists refetch. The `token` cookie set at sign-in authenticates the
 * stream (EventSource cannot send a bearer header); the browser reconnects by itself after a drop.
 */
export function useUserEvents(): void {
  const dispatch = useAppDispatch();
  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    const source = new EventSource('/v1/users/events');
    const onUsers = () => {
      dispatch(api.util.invalidateTags([{ type: 'User', id: 'LIST' }, 'Customer', 'Entity']));
    };
    source.addEventListener('users', onUsers);
    return () => {
      source.removeEventListener('users', onUsers);
      source.close();
    };
  }, [dispatch]);
}
