import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Alarm, AlarmSilence, CreateSilenceBody, ListedAlarm } from '../../contract/alarms';
import { alarmRoutes } from '../../contract/routes/alarms';
import { call } from './endpoint';

export type AlarmsStatus = 'open' | 'all';

/** GET /api/alarms?status= — newest first; the live feed keeps `['alarms', 'open']` current between polls. */
export const alarmsQueryKey = ['alarms'] as const;

/** Polling is the fallback when the live feed is down: the bell and the list ask again this often. */
export const ALARMS_POLL_MS = 30_000;

export async function getAlarms(status: AlarmsStatus): Promise<ListedAlarm[]> {
  return (await call(alarmRoutes.list, { query: { status } })).data.alarms;
}

export const alarmsQueryOptions = (status: AlarmsStatus) =>
  queryOptions({
    queryKey: [...alarmsQueryKey, status],
    queryFn: () => getAlarms(status),
    refetchInterval: ALARMS_POLL_MS,
  });

export function useAlarms(status: AlarmsStatus) {
  return useQuery(alarmsQueryOptions(status));
}

export async function acknowledgeAlarm(id: string): Promise<Alarm> {
  return (await call(alarmRoutes.acknowledge, { params: { id } })).data;
}

export function useAcknowledgeAlarm() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: acknowledgeAlarm,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: alarmsQueryKey }),
  });
}

/** GET /api/alarms/silences — the silences in force, soonest end first. */
export const silencesQueryKey = [...alarmsQueryKey, 'silences'] as const;

export async function getSilences(): Promise<AlarmSilence[]> {
  return (await call(alarmRoutes.silences, { query: { status: 'active' } })).data.silences;
}

export function useSilences() {
  return useQuery({ queryKey: silencesQueryKey, queryFn: getSilences, refetchInterval: ALARMS_POLL_MS });
}

export async function createSilence(body: CreateSilenceBody): Promise<AlarmSilence> {
  return (await call(alarmRoutes.silence, { body })).data;
}

export function useCreateSilence() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createSilence,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: silencesQueryKey }),
  });
}

export async function liftSilence(id: string): Promise<AlarmSilence> {
  return (await call(alarmRoutes.liftSilence, { params: { id } })).data;
}

export function useLiftSilence() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: liftSilence,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: silencesQueryKey }),
  });
}
