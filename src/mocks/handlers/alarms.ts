import { http, HttpResponse } from 'msw';
import {
  acknowledgeAlarmResponseSchema,
  alarmIdParamsSchema,
  alarmsQuerySchema,
  type AcknowledgeAlarmResponse,
  type AlarmsResponse,
  type ListedAlarm,
} from '../../../contract/alarms';
import { authorize, errorResponse } from '../http';
import { nowIso, store, type MockStore } from '../store';

/** The alarms of the mocks, newest first; renewed with the store (resetStore()). */
const states = new WeakMap<MockStore, ListedAlarm[]>();

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

function seed(): ListedAlarm[] {
  const base = { job_id: null, acknowledged_at: null, acknowledged_by: null, resolved_at: null, deliveries: [] };
  return [
    {
      ...base,
      id: 'alm-capture-failed',
      kind: 'capture_failed',
      severity: 'critical',
      mosque_id: 'mq01abcdef',
      mosque_name: 'Central Mosque',
      instance_id: 'cap-0001',
      message: 'No media — the stream never came',
      raised_at: minutesAgo(12),
      deliveries: [{ channel: 'webhook', event: 'raised', state: 'delivered', attempts: 2, last_attempt_at: minutesAgo(11), next_attempt_at: null, last_error: null, delivered_at: minutesAgo(11) }],
    },
    {
      ...base,
      id: 'alm-stall',
      kind: 'stall',
      severity: 'warning',
      mosque_id: 'mq01abcdef',
      mosque_name: 'Central Mosque',
      instance_id: 'cap-0002',
      message: 'No media for 75 s while the window was open',
      raised_at: minutesAgo(40),
      resolved_at: minutesAgo(35),
    },
  ];
}

/** The alarms of the current store (tests add to it through raiseMockAlarm). */
export function alarmsMock(): ListedAlarm[] {
  let alarms = states.get(store);
  if (!alarms) {
    alarms = seed();
    states.set(store, alarms);
  }
  return alarms;
}

/** Adds an open alarm, as the server's modules raise one; returns it. */
export function raiseMockAlarm(fields: Partial<ListedAlarm> & Pick<ListedAlarm, 'id' | 'kind' | 'severity' | 'message'>): ListedAlarm {
  const alarm: ListedAlarm = { mosque_id: null, mosque_name: null, job_id: null, instance_id: null, raised_at: nowIso(), acknowledged_at: null, acknowledged_by: null, resolved_at: null, deliveries: [], ...fields };
  alarmsMock().unshift(alarm);
  return alarm;
}

export const alarmHandlers = [
  http.get('/api/alarms', ({ request }) => {
    const actor = authorize(request);
    if (actor instanceof Response) return actor;
    const query = alarmsQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
    if (!query.success) return errorResponse(400, query.error.issues[0]?.message ?? 'Invalid query');
    const alarms = alarmsMock().filter((alarm) => query.data.status === 'all' || alarm.resolved_at === null);
    return HttpResponse.json<AlarmsResponse>({ success: true, data: { alarms: alarms.slice(0, query.data.limit) } });
  }),

  http.post('/api/alarms/:id/acknowledge', ({ request, params }) => {
    const actor = authorize(request);
    if (actor instanceof Response) return actor;
    const parsed = alarmIdParamsSchema.safeParse(params);
    const alarm = parsed.success ? alarmsMock().find((a) => a.id === parsed.data.id) : undefined;
    if (!alarm) return errorResponse(404, `Alarm ${String(params.id)} not found`);
    if (!alarm.acknowledged_at) Object.assign(alarm, { acknowledged_at: nowIso(), acknowledged_by: actor.username });
    // The answer carries the alarm without its deliveries, as the server's does (parsing drops them).
    return HttpResponse.json<AcknowledgeAlarmResponse>(acknowledgeAlarmResponseSchema.parse({ success: true, message: 'Alarm acknowledged', data: alarm }));
  }),
];
