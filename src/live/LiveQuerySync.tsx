import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { configQueryKey } from '../api/config';
import { usersQueryKey } from '../api/users';
import { useLive } from './context';

/**
 * Mosques and accounts changed anywhere (another console, through another server) are asked for again,
 * so a page showing them is never left stale: the live feed names what changed, not how.
 */
export function LiveQuerySync() {
  const { subscribe } = useLive();
  const queryClient = useQueryClient();
  useEffect(() => {
    const offMosques = subscribe(
      'mosque_update',
      () => void queryClient.invalidateQueries({ queryKey: configQueryKey }),
    );
    const offUsers = subscribe('user_update', () => void queryClient.invalidateQueries({ queryKey: usersQueryKey }));
    return () => {
      offMosques();
      offUsers();
    };
  }, [subscribe, queryClient]);
  return null;
}
