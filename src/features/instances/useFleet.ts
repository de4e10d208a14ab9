import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { Instance } from '../../../contract/instances';
import { instancesPageQueryKey, instancesQueryKey, useInstances } from '../../api/instances';
import { useLive } from '../../live/context';

/**
 * The fleet as the page shows it: read once from GET /api/instances/, then kept current by the live feed
 * (initial_data and every instance_status_update carry the whole list), so state changes show without a reload;
 * the table's page (useInstancesPage) is asked again whenever it changes.
 */
export function useFleet() {
  const query = useInstances();
  const queryClient = useQueryClient();
  const { subscribe } = useLive();

  useEffect(() => {
    const put = (instances: Instance[]) => {
      queryClient.setQueryData(instancesQueryKey, instances);
      // The table's page is the server's search over this list: asked again when the list changes.
      void queryClient.invalidateQueries({ queryKey: instancesPageQueryKey });
    };
    const offInitial = subscribe('initial_data', (message) => put(message.data.instances));
    const offUpdate = subscribe('instance_status_update', (message) => put(message.data));
    return () => {
      offInitial();
      offUpdate();
    };
  }, [subscribe, queryClient]);

  return query;
}
