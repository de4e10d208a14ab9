import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { alarmsResponseSchema } from '../../../contract/alarms';
import { fridaysResponseSchema, type FridayRow } from '../../../contract/fridays';
import type { RecordingGap } from '../../../contract/instances';
import { scheduledFriday, type SchedulerEnv, WORLD_MOSQUES, type SchedulerApp } from './helpers';

const MOSQUES = [
  ...WORLD_MOSQUES.filter((m) => ['nyc0000001', 'lon0000001', 'akl0000001'].includes(m.id)),
  { id: 'nourl00001', name: 'No Stream Mosque', url: null, timezone: 'Europe/Paris', fridayPrayer: '13:00' },
  {
    id: 'notime0001',
    name: 'No Time Mosque',
    url: 'https://streams.test/nt.m3u8',
    timezone: 'Europe/Paris',
    fridayPrayer: null,
  },
  {
    id: 'inactive01',
    name: 'Inactive Mosque',
    url: 'https://streams.test/in.m3u8',
    timezone: 'Europe/Paris',
    fridayPrayer: '13:00',
    active: false,
  },
];

describe('the Friday ledger', () => {
  let env: SchedulerEnv;
  let s: SchedulerApp;
  let token: string;

  beforeEach(async () => {
    ({ env, s, token } = await scheduledFriday({ mosques: MOSQUES }));
  });
  afterEach(() => env.dispose());

  const ledger = async (query = ''): Promise<{ friday: string; rows: Record<string, FridayRow> }> => {
    const response = await s.request({ method: 'GET', url: `/api/scheduler/fridays${query}`, token });
    expect(response.statusCode).toBe(200);
    const { data } = fridaysResponseSchema.parse(response.json());
    return { friday: data.friday, rows: Object.fromEntries(data.fridays.map((row) => [row.mosque_id, row])) };
  };
  const runAt = async (instant: string) => {
    env.clock.set(instant);
    token = await s.login();
    await s.runDue();
  };

  it('has one row per active mosque for the coming Friday: scheduled, or unschedulable with its reason and alarm', async () => {
    const { friday, rows } = await ledger();
    expect(friday).toBe('2026-11-06');
    expect(Object.keys(rows).sort()).toEqual(['akl0000001', 'lon0000001', 'notime0001', 'nourl00001', 'nyc0000001']);
    expect(rows.nyc0000001).toMatchObject({
      friday: '2026-11-06',
      status: 'scheduled',
      recording_start: '2026-11-06T17:10:00.000Z',
      window_end: '2026-11-06T19:10:00.000Z',
      expected_seconds: 7200,
      covered_seconds: null,
      reason: null,
      job_id: 'friday-nyc0000001-2026-11-06',
      recording_ids: [],
    });
    expect(rows.nourl00001).toMatchObject({
      status: 'unschedulable',
      reason: 'No stream source configured',
      recording_start: null,
      job_id: null,
    });
    expect(rows.notime0001).toMatchObject({ status: 'unschedulable', reason: "No coordinates or fixed Jumu'ah time" });
    const alarms = alarmsResponseSchema.parse((await s.request({ method: 'GET', url: '/api/alarms', token })).json())
      .data.alarms;
    const unschedulable = alarms.filter((a) => a.kind === 'unschedulable');
    expect(unschedulable.map((a) => a.mosque_id).sort()).toEqual(['notime0001', 'nourl00001']);
    expect(rows.nourl00001.alarm_ids).toEqual(
      unschedulable.filter((a) => a.mosque_id === 'nourl00001').map((a) => a.id),
    );
  });

  it('follows each job: cancelled, recording with its coverage so far, then its outcome; past Fridays too', async () => {
    expect(
      (await s.request({ method: 'POST', url: '/api/scheduler/cancel/friday-lon0000001-2026-11-06', token }))
        .statusCode,
    ).toBe(200);
    await runAt('2026-11-05T23:40:00.000Z');
    let { rows } = await ledger();
    expect(rows.lon0000001).toMatchObject({ status: 'cancelled', reason: 'Cancelled by admin' });
    expect(rows.akl0000001).toMatchObject({
      status: 'recording',
      covered_seconds: 7200,
      recording_ids: ['rec-i-000001'],
    });

    s.launcher.setRecording('i-000001', {
      inProgress: false,
      coveredSeconds: 3600,
      gaps: [],
      reason: 'the encoder restarted',
    });
    await runAt('2026-11-06T02:00:00.000Z');
    ({ rows } = await ledger('?date=2026-11-06'));
    expect(rows.akl0000001).toMatchObject({
      status: 'partial',
      covered_seconds: 3600,
      reason: 'Recorded 1 h of 2 h (50%); the encoder restarted',
    });

    // A Friday now past for which nothing was scheduled reads missed; the unschedulable stay so.
    ({ rows } = await ledger('?date=2026-10-30'));
    expect(rows.nyc0000001).toMatchObject({
      friday: '2026-10-30',
      status: 'missed',
      reason: 'No recording was scheduled for this Friday',
    });
    expect(rows.nourl00001.status).toBe('unschedulable');
  });

  it("carries its recording's gaps, each with cause and content lost, and the operator who stopped it", async () => {
    await runAt('2026-11-05T23:40:00.000Z');
    const gaps: RecordingGap[] = [
      {
        start: '2026-11-05T23:40:00.000Z',
        end: '2026-11-05T23:41:10.000Z',
        cause: 'not_live_yet',
        reason: 'The stream was not live yet (HTTP 404)',
        content_lost_seconds: 0,
      },
      {
        start: '2026-11-06T00:05:00.000Z',
        end: '2026-11-06T00:06:10.000Z',
        cause: 'stream_stalled',
        reason: 'No media for 70 s',
        content_lost_seconds: 70,
      },
    ];
    // The in-memory launcher started i-000001 with recording rec-i-000001: store them as the capture fleet would.
    const now = env.clock.now().toISOString();
    const url = 'https://streams.test/akl.m3u8';
    await s.app.ctx.db.kysely
      .insertInto('instances')
      .values({
        id: 'i-000001',
        provider: 'local',
        scope: 'test',
        provider_instance_id: 'i-000001',
        name: 'capture-akl',
        state: 'terminated',
        instance_type: 'local',
        mosque_id: 'akl0000001',
        url,
        method: 'api',
        duration: 7200,
        width: 320,
        height: 240,
        image_id: null,
        launch_time: now,
        running_at: now,
        ended_at: now,
        state_reason: 'Stopped by admin',
        job_id: 'friday-akl0000001-2026-11-06',
        updated_at: now,
      })
      .execute();
    await s.app.ctx.recordings.create({
      id: 'rec-i-000001',
      instanceId: 'i-000001',
      mosqueId: 'akl0000001',
      url,
      filePath: null,
    });
    const reading = {
      status: 'partial',
      bytes: 1000,
      mediaSeconds: 1500,
      filePath: null,
      reason: 'Stopped by admin',
      expectedSeconds: 7200,
      coveredSeconds: 1500,
      gaps,
      reconnects: 1,
      stoppedByOperator: true,
    } as const;
    await s.app.ctx.recordings.applyReading('i-000001', reading);

    const { rows } = await ledger('?date=2026-11-06');
    expect(rows.akl0000001).toMatchObject({ recording_ids: ['rec-i-000001'], gaps, stopped_by: 'admin' });
    expect(rows.lon0000001).toMatchObject({ gaps: [], stopped_by: null });
    const details = await s.request({ method: 'GET', url: '/api/recordings/rec-i-000001', token });
    expect(details.json()).toMatchObject({ data: { stopped_by: 'admin', gaps } });
  });

  it('answers a page of the ledger with its total when asked: searched, filtered by status and sorted', async () => {
    const page = async (query: string) => {
      const response = await s.request({ method: 'GET', url: `/api/scheduler/fridays?${query}`, token });
      expect(response.statusCode, response.body).toBe(200);
      const { data } = fridaysResponseSchema.parse(response.json());
      return { ids: data.fridays.map((row) => row.mosque_id), total: data.total };
    };
    expect((await page('')).total).toBeUndefined();
    expect(await page('sort=mosque_name&limit=2')).toEqual({ ids: ['akl0000001', 'lon0000001'], total: 5 });
    expect(await page('sort=mosque_name&order=desc&limit=2&offset=1')).toEqual({
      ids: ['nourl00001', 'nyc0000001'],
      total: 5,
    });
    expect(await page('q=MOSQUE&status=unschedulable&sort=mosque_id')).toEqual({
      ids: ['notime0001', 'nourl00001'],
      total: 2,
    });
    expect(await page('q=nyc0000')).toEqual({ ids: ['nyc0000001'], total: 1 });
    // Unschedulable rows have no start: they sort after every scheduled one either way.
    expect((await page('sort=recording_start&order=desc')).ids.slice(-2).sort()).toEqual(['notime0001', 'nourl00001']);
    for (const query of ['sort=url', 'status=lost', 'limit=0']) {
      expect(
        (await s.request({ method: 'GET', url: `/api/scheduler/fridays?${query}`, token })).statusCode,
        query,
      ).toBe(400);
    }
  });

  it('rejects a date that is not a Friday, and needs a session', async () => {
    for (const date of ['2026-11-05', '2026-02-30', 'friday']) {
      const response = await s.request({ method: 'GET', url: `/api/scheduler/fridays?date=${date}`, token });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ success: false });
    }
    expect((await s.request({ method: 'GET', url: '/api/scheduler/fridays' })).statusCode).toBe(401);
  });
});
