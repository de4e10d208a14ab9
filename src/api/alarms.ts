import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AcknowledgeAlarmResponse, Alarm, AlarmsResponse, ListedAlarm } from '../../contract/alarms';
import { api } from './client';

export type AlarmsStatus = 'open' | 'all';

/** GET /api/alarms?status= — newest first; the live feed keeps `['alarms', 'open']` current between polls. */
export const alarmsQueryKey = ['alarms'] as const;

/** Polling is the fallback when the live feed is down: the bell and the list ask again this often. */
export const ALARMS_POLL_MS = 30_000;

export async function getAlarms(status: AlarmsStatus): Promise<ListedAlarm[]> {
  const response = await api.get<AlarmsResponse>('/api/alarms', { params: { status } });
  return response.data.data.alarms;
}

export const alarmsQueryOptions = (status: AlarmsStatus) =>
  queryOptions({ queryKey: [...alarmsQueryKey, status], queryFn: () => getAlarms(status), refetchInterval: ALARMS_POLL_MS });

export function useAlarms(status: AlarmsStatus) {
  return useQuery(alarmsQueryOptions(status));
}

export async function acknowledgeAlarm(id: string): Promise<Alarm> {
  const response = await api.post<AcknowledgeAlarmResponse>(`/api/alarms/${encodeURIComponent(id)}/acknowledge`);
  return response.data.data;
}

export function useAcknowledgeAlarm() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: acknowledgeAlarm,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: alarmsQueryKey }),
  });
}
