import { HttpResponse } from 'msw';
import { acknowledgeAlarmResponseSchema, type AlarmSilence, type ListedAlarm } from '../../../contract/alarms';
import { alarmRoutes } from '../../../contract/routes/alarms';
import { mock } from '../endpoint';
import { errorResponse } from '../http';
import { nowIso, store, type MockStore } from '../store';
import { mockMosques } from './config';

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
      deliveries: [
        {
          channel: 'webhook',
          event: 'raised',
          state: 'delivered',
          attempts: 2,
          last_attempt_at: minutesAgo(11),
          next_attempt_at: null,
          last_error: null,
          delivered_at: minutesAgo(11),
        },
      ],
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
export function raiseMockAlarm(
  fields: Partial<ListedAlarm> & Pick<ListedAlarm, 'id' | 'kind' | 'severity' | 'message'>,
): ListedAlarm {
  const alarm: ListedAlarm = {
    mosque_id: null,
    mosque_name: null,
    job_id: null,
    instance_id: null,
    raised_at: nowIso(),
    acknowledged_at: null,
    acknowledged_by: null,
    resolved_at: null,
    deliveries: [],
    ...fields,
  };
  alarmsMock().unshift(alarm);
  return alarm;
}

/** The silences of the mocks, newest first; renewed with the store. */
const silenceStates = new WeakMap<MockStore, AlarmSilence[]>();

export function silencesMock(): AlarmSilence[] {
  let silences = silenceStates.get(store);
  if (!silences) {
    silences = [];
    silenceStates.set(store, silences);
  }
  return silences;
}

const isActive = (silence: AlarmSilence) => silence.lifted_at === null && silence.ends_at > nowIso();

export const alarmHandlers = [
  mock(alarmRoutes.list, ({ query }) => {
    const alarms = alarmsMock().filter((alarm) => query.status === 'all' || alarm.resolved_at === null);
    return HttpResponse.json({ success: true, data: { alarms: alarms.slice(0, query.limit) } });
  }),

  mock(alarmRoutes.acknowledge, ({ params, user }) => {
    const alarm = alarmsMock().find((candidate) => candidate.id === params.id);
    if (!alarm) return errorResponse(404, `Alarm ${params.id} not found`);
    if (!alarm.acknowledged_at) Object.assign(alarm, { acknowledged_at: nowIso(), acknowledged_by: user.username });
    // The answer carries the alarm without its deliveries, as the server's does (parsing drops them).
    return HttpResponse.json(
      acknowledgeAlarmResponseSchema.parse({ success: true, message: 'Alarm acknowledged', data: alarm }),
    );
  }),

  mock(alarmRoutes.silences, ({ query }) => {
    const silences = silencesMock().filter((silence) => query.status === 'all' || isActive(silence));
    return HttpResponse.json({ success: true, data: { silences } });
  }),

  mock(alarmRoutes.silence, ({ body, user }) => {
    const mosque =
      body.mosque_id === undefined
        ? undefined
        : mockMosques().find((candidate) => candidate.mosque_id === body.mosque_id);
    if (body.mosque_id !== undefined && !mosque) return errorResponse(400, `Mosque ${body.mosque_id} does not exist`);
    const now = Date.now();
    const silence: AlarmSilence = {
      id: `sil-${Math.random().toString(16).slice(2, 18).padEnd(16, '0')}`,
      mosque_id: body.mosque_id ?? null,
      mosque_name: mosque?.name ?? null,
      kind: body.kind ?? null,
      comment: body.comment,
      created_by: user.username,
      starts_at: new Date(now).toISOString(),
      ends_at: new Date(now + body.duration_minutes * 60_000).toISOString(),
      lifted_at: null,
      lifted_by: null,
    };
    silencesMock().unshift(silence);
    return HttpResponse.json(
      { success: true, message: `Notifications silenced until ${silence.ends_at}`, data: silence },
      { status: 201 },
    );
  }),

  mock(alarmRoutes.liftSilence, ({ params, user }) => {
    const silence = silencesMock().find((candidate) => candidate.id === params.id);
    if (!silence) return errorResponse(404, `Silence ${params.id} not found`);
    if (silence.lifted_at === null) Object.assign(silence, { lifted_at: nowIso(), lifted_by: user.username });
    return HttpResponse.json({ success: true, message: 'Silence lifted', data: silence });
  }),
];
