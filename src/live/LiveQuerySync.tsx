import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { configQueryKey } from '../api/config';
import { usersQueryKey } from '../api/users';
import { useLive } from './context';

/**
 * How long mosque changes are gathered before the mosque reads are asked for again. A bulk action on
 * 2,000 mosques sends 2,000 changes: each invalidation cancelled and restarted the page's reads, and the
 * storm of restarted requests kept the table from settling for over 30 s. Gathered, it is one re-read.
 */
export const MOSQUE_UPDATE_GATHER_MS = 250;

/**
 * Mosques and accounts changed anywhere (another console, through another server) are asked for again,
 * so a page showing them is never left stale: the live feed names what changed, not how.
 */
export function LiveQuerySync() {
  const { subscribe } = useLive();
  const queryClient = useQueryClient();
  useEffect(() => {
    let gathering: ReturnType<typeof setTimeout> | undefined;
    const offMosques = subscribe('mosque_update', () => {
      gathering ??= setTimeout(() => {
        gathering = undefined;
        void queryClient.invalidateQueries({ queryKey: configQueryKey });
      }, MOSQUE_UPDATE_GATHER_MS);
    });
    const offUsers = subscribe('user_update', () => void queryClient.invalidateQueries({ queryKey: usersQueryKey }));
    return () => {
      clearTimeout(gathering);
      offMosques();
      offUsers();
    };
  }, [subscribe, queryClient]);
  return null;
}
