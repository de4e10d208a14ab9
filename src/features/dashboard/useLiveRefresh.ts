import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { activityQueryKey } from '../../api/activity';
import { monitoringQueryKeys } from '../../api/monitoring';
import { useLive } from '../../live/context';

/**
 * When the live feed reports a change in the fleet (an instance appears or changes state, a recording
 * starts or ends), the activity log and the recording total have news: ask for them again, without
 * waiting for the next 30 s poll. Progress updates of a recording (its size) do not count as news.
 */
export function useLiveRefresh(): void {
  const { instances, recordings } = useLive();
  const queryClient = useQueryClient();
  const fleetSignature = instances.map((instance) => `${instance.id}:${instance.state}`).join(',');
  const recordingSignature = recordings.map((recording) => `${recording.id}:${recording.status}`).join(',');
  const seen = useRef<{ fleet: string; recordings: string } | null>(null);

  useEffect(() => {
    const previous = seen.current;
    seen.current = { fleet: fleetSignature, recordings: recordingSignature };
    if (!previous) return;
    if (previous.fleet !== fleetSignature) void queryClient.invalidateQueries({ queryKey: activityQueryKey });
    if (previous.recordings !== recordingSignature)
      void queryClient.invalidateQueries({ queryKey: monitoringQueryKeys.recordings });
  }, [fleetSignature, recordingSignature, queryClient]);
}
