import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { Alarm, ListedAlarm } from '../../../contract/alarms';
import { alarmsQueryKey } from '../../api/alarms';
import { useLive } from '../../live/context';
import { useNotify } from '../../notifications/context';
import { alarmTitle } from './alarm-labels';

const openKey = [...alarmsQueryKey, 'open'] as const;

/** The open list with `alarm` applied: added or updated while open, gone once resolved. */
export function applyAlarm(open: readonly ListedAlarm[], alarm: Alarm): ListedAlarm[] {
  const known = open.find((a) => a.id === alarm.id);
  const rest = open.filter((a) => a.id !== alarm.id);
  if (alarm.resolved_at) return rest;
  return [{ ...alarm, deliveries: known?.deliveries ?? [] }, ...rest].sort((a, b) =>
    b.raised_at.localeCompare(a.raised_at),
  );
}

/**
 * Keeps the open alarms in the query cache from the live feed (`alarms` snapshot after connecting,
 * `alarm` on each change) and tells the operator at once when a critical alarm is raised. Every
 * change also refetches the lists, which carry the delivery state the live messages do not.
 */
export function useAlarmFeed(): void {
  const { subscribe } = useLive();
  const queryClient = useQueryClient();
  const notify = useNotify();

  useEffect(() => {
    const offSnapshot = subscribe('alarms', (message) => {
      const previous = queryClient.getQueryData<ListedAlarm[]>(openKey) ?? [];
      const deliveries = new Map(previous.map((a) => [a.id, a.deliveries]));
      queryClient.setQueryData<ListedAlarm[]>(
        openKey,
        message.data.alarms.map((a) => ({ ...a, deliveries: deliveries.get(a.id) ?? [] })),
      );
      void queryClient.invalidateQueries({ queryKey: alarmsQueryKey });
    });
    const offChange = subscribe('alarm', ({ data: alarm }) => {
      const previous = queryClient.getQueryData<ListedAlarm[]>(openKey) ?? [];
      const isNew = !previous.some((a) => a.id === alarm.id);
      queryClient.setQueryData<ListedAlarm[]>(openKey, applyAlarm(previous, alarm));
      void queryClient.invalidateQueries({ queryKey: alarmsQueryKey });
      if (isNew && alarm.severity === 'critical' && !alarm.resolved_at && !alarm.acknowledged_at) {
        notify.error(`Critical alarm: ${alarmTitle(alarm)} — ${alarm.message}`, 0);
      }
    });
    return () => {
      offSnapshot();
      offChange();
    };
  }, [subscribe, queryClient, notify]);
}
