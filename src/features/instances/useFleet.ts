import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { Instance } from '../../../contract/instances';
import { instancesQueryKey, useInstances } from '../../api/instances';
import { useLive } from '../../live/context';

/**
 * The fleet as the page shows it: read once from GET /api/instances/, then kept current by the live feed
 * (initial_data and every instance_status_update carry the whole list), so state changes show without a reload.
 */
export function useFleet() {
  const query = useInstances();
  const queryClient = useQueryClient();
  const { subscribe } = useLive();

  useEffect(() => {
    const put = (instances: Instance[]) => queryClient.setQueryData(instancesQueryKey, instances);
    const offInitial = subscribe('initial_data', (message) => put(message.data.instances));
    const offUpdate = subscribe('instance_status_update', (message) => put(message.data));
    return () => {
      offInitial();
      offUpdate();
    };
  }, [subscribe, queryClient]);

  return query;
}
