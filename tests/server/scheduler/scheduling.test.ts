import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  jobsResponseSchema,
  SCHEDULER_NOT_RUNNING_MESSAGE,
  scheduleResponseSchema,
  schedulerPrayerTimesResponseSchema,
  schedulerStatusResponseSchema,
  upcomingResponseSchema,
  type Job,
} from '../../../contract/scheduler';
import { waitFor } from '../../../testkit/wait';
import { SchedulerEnv, type SchedulerApp } from './helpers';

describe('scheduling Friday recordings', () => {
  let env: SchedulerEnv;
  let s: SchedulerApp;
  let token: string;

  beforeEach(async () => {
    // Saturday 31 October 2026: the EU left summer time last Sunday, the US leaves it tomorrow.
    env = await SchedulerEnv.create({
      start: '2026-10-31T12:00:00Z',
      env: { METRICS_TOKEN: 'metrics-token-for-tests-0123456789' },
    });
    s = await env.build();
    token = await s.login();
  });
  afterEach(() => env.dispose());

  const schedule = (payload: object = {}) =>
    s.request({ method: 'POST', url: '/api/scheduler/schedule-friday', token, payload });
  const jobs = async (): Promise<Job[]> => {
    const response = await s.request({ method: 'GET', url: '/api/scheduler/jobs', token });
    return jobsResponseSchema.parse(response.json()).data.jobs;
  };
  const recordingJobs = async () => (await jobs()).filter((j) => j.kind === 'recording');

  it('creates one job per mosque at its recording start, in each zone, across the DST change', async () => {
    const response = await schedule({ forceRefresh: false, mosqueFilter: null });
    expect(response.statusCode).toBe(200);
    const body = scheduleResponseSchema.parse(response.json());
    expect(body.data).toMatchObject({ scheduled: 6, created: 6, updated: 0, unchanged: 0, skipped: [] });
    expect(body.data.friday_dates).toEqual(['2026-11-06']);

    const byMosque = Object.fromEntries((await recordingJobs()).map((j) => [j.mosque_id, j]));
    // 12:30 EST (UTC-5, after the US change on 1 November), not EDT.
    expect(byMosque.nyc0000001).toMatchObject({
      recording_start: '2026-11-06T17:10:00.000Z',
      prayer_time: '2026-11-06T17:30:00.000Z',
      recording_end: '2026-11-06T19:10:00.000Z',
      trigger: 'date[2026-11-06T17:10:00Z]',
      next_run_time: '2026-11-06T17:10:00.000Z',
      timezone: 'America/New_York',
      friday_date: '2026-11-06',
      func: 'record_friday_prayer',
      status: 'scheduled',
      duration: 7200,
      url: 'https://streams.test/ny.m3u8',
      name: 'Friday recording: New York Mosque',
      attempts: 0,
      late: false,
    });
    expect(byMosque.lon0000001.recording_start).toBe('2026-11-06T12:55:00.000Z'); // GMT
    expect(byMosque.lax0000001.recording_start).toBe('2026-11-06T19:55:00.000Z'); // PST
    expect(byMosque.syd0000001.recording_start).toBe('2026-11-06T01:25:00.000Z'); // AEDT, UTC+11
    expect(byMosque.khi0000001.recording_start).toBe('2026-11-06T08:10:00.000Z'); // no DST
    // Auckland's Friday 13:00 NZDT is Thursday in UTC: the job still belongs to Friday 6 November there.
    expect(byMosque.akl0000001).toMatchObject({
      recording_start: '2026-11-05T23:40:00.000Z',
      friday_date: '2026-11-06',
    });
  });

  it('lists the jobs as upcoming recordings, soonest first, and reports status', async () => {
    await schedule();
    const upcoming = upcomingResponseSchema.parse(
      (await s.request({ method: 'GET', url: '/api/scheduler/upcoming?limit=3', token })).json(),
    );
    expect(upcoming.data.upcoming_recordings.map((u) => u.mosque_id)).toEqual([
      'akl0000001',
      'syd0000001',
      'khi0000001',
    ]);
    expect(upcoming.data.upcoming_recordings[0]).toMatchObject({
      job_id: 'friday-akl0000001-2026-11-06',
      mosque_name: 'Auckland Mosque',
      recording_time: '2026-11-05T23:40:00.000Z',
      prayer_time: '2026-11-06T00:00:00.000Z',
      timezone: 'Pacific/Auckland',
      status: 'scheduled',
    });
    const defaultLimit = upcomingResponseSchema.parse(
      (await s.request({ method: 'GET', url: '/api/scheduler/upcoming', token })).json(),
    );
    expect(defaultLimit.data.upcoming_recordings).toHaveLength(6);

    const status = schedulerStatusResponseSchema.parse(
      (await s.request({ method: 'GET', url: '/api/scheduler/status', token })).json(),
    );
    expect(status.data).toEqual({
      scheduler_running: true,
      total_jobs: 7,
      active_schedules: 6,
      next_recording: '2026-11-05T23:40:00.000Z',
      next_recording_mosque: 'Auckland Mosque',
      next_recording_job_id: 'friday-akl0000001-2026-11-06',
    });
  });

  it('serves one upcoming list until a job changes: at once on this server, within a second on another', async () => {
    await schedule();
    const other = await env.build();
    const otherToken = await other.login();
    const upcomingOn = async (app: SchedulerApp, as: string) =>
      upcomingResponseSchema
        .parse((await app.request({ method: 'GET', url: '/api/scheduler/upcoming?limit=10', token: as })).json())
        .data.upcoming_recordings.map((u) => u.mosque_id);
    const everyMosque = await upcomingOn(s, token);
    expect(everyMosque).toHaveLength(6);
    expect(await upcomingOn(other, otherToken)).toEqual(everyMosque);

    const cancelled = await s.request({
      method: 'POST',
      url: '/api/scheduler/cancel/friday-akl0000001-2026-11-06',
      token,
    });
    expect(cancelled.statusCode).toBe(200);
    // The server that wrote the change never serves the list from before it.
    expect(await upcomingOn(s, token)).toEqual(everyMosque.filter((id) => id !== 'akl0000001'));
    // Another server on the same database sees it once its list expires (1 s).
    await waitFor(
      async () => !(await upcomingOn(other, otherToken)).includes('akl0000001'),
      'the other server to stop listing the cancelled job',
      5000,
      100,
    );
  });

  it('exports job counts by status to monitoring', async () => {
    await schedule();
    await s.request({ method: 'POST', url: '/api/scheduler/cancel/friday-lon0000001-2026-11-06', token });
    const metrics = await s.request({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: 'Bearer metrics-token-for-tests-0123456789' },
    });
    expect(metrics.statusCode).toBe(200);
    expect(metrics.body).toContain('capture_scheduler_jobs{status="scheduled"} 6');
    expect(metrics.body).toContain('capture_scheduler_jobs{status="cancelled"} 1');
  });

  it('shows the recurring job with a cron trigger, and prayer times from the planner', async () => {
    const recurring = (await jobs()).find((j) => j.kind === 'recurring');
    expect(recurring).toMatchObject({
      func: 'schedule_friday_recordings',
      trigger: 'cron[0 0 * * *]',
      next_run_time: '2026-11-01T00:00:00.000Z',
      status: 'scheduled',
    });
    const times = schedulerPrayerTimesResponseSchema.parse(
      (await s.request({ method: 'GET', url: '/api/scheduler/prayer-times', token })).json(),
    );
    expect(times.data.prayer_times.find((p) => p.mosque_id === 'nyc0000001')).toMatchObject({
      friday_prayer: '2026-11-06T17:30:00.000Z',
      recording_start: '2026-11-06T17:10:00.000Z',
      prayer_time: '12:30',
      recording_time: '12:10',
      timezone: 'America/New_York',
    });
  });

  it('is idempotent: scheduling twice creates no duplicates', async () => {
    await schedule();
    const again = scheduleResponseSchema.parse((await schedule()).json());
    expect(again.data).toMatchObject({ scheduled: 6, created: 0, updated: 0, unchanged: 6 });
    expect(await recordingJobs()).toHaveLength(6);
    // A few days later the coming Friday is still the same one.
    env.clock.set('2026-11-04T10:00:00Z');
    token = await s.login();
    expect(scheduleResponseSchema.parse((await schedule()).json()).data.created).toBe(0);
    expect(await recordingJobs()).toHaveLength(6);
  });

  it('recomputes times of jobs not yet started only with forceRefresh', async () => {
    await schedule();
    env.fixedPlanner.mosques[0].fridayPrayer = '12:45';
    const plain = scheduleResponseSchema.parse((await schedule({ forceRefresh: false })).json());
    expect(plain.data.updated).toBe(0);
    expect((await recordingJobs()).find((j) => j.mosque_id === 'nyc0000001')?.recording_start).toBe(
      '2026-11-06T17:10:00.000Z',
    );

    const forced = scheduleResponseSchema.parse((await schedule({ forceRefresh: true })).json());
    expect(forced.data).toMatchObject({ updated: 1, unchanged: 5, created: 0 });
    expect((await recordingJobs()).find((j) => j.mosque_id === 'nyc0000001')).toMatchObject({
      recording_start: '2026-11-06T17:25:00.000Z',
      next_run_time: '2026-11-06T17:25:00.000Z',
      trigger: 'date[2026-11-06T17:25:00Z]',
    });
  });

  it('forceRefresh leaves launched and cancelled jobs alone and cancels jobs of mosques no longer active', async () => {
    await schedule();
    await s.request({ method: 'POST', url: '/api/scheduler/cancel/friday-lon0000001-2026-11-06', token });
    env.fixedPlanner.mosques[1].fridayPrayer = '13:45';
    env.fixedPlanner.mosques[4].active = false;
    const forced = scheduleResponseSchema.parse((await schedule({ forceRefresh: true })).json());
    expect(forced.data).toMatchObject({ kept: 1, cancelled: 1, created: 0 });
    const byMosque = Object.fromEntries((await recordingJobs()).map((j) => [j.mosque_id, j]));
    expect(byMosque.lon0000001).toMatchObject({ status: 'cancelled', recording_start: '2026-11-06T12:55:00.000Z' });
    expect(byMosque.khi0000001).toMatchObject({
      status: 'cancelled',
      last_error: 'Cancelled: the mosque is no longer active',
    });
  });

  it('honours a mosque filter (list or comma-separated) and reports unknown ids and unplannable mosques', async () => {
    env.fixedPlanner.mosques.push({
      id: 'nocoords01',
      name: 'No Coordinates',
      url: 'https://streams.test/x.m3u8',
      timezone: 'UTC',
      fridayPrayer: null,
    });
    const listed = scheduleResponseSchema.parse(
      (await schedule({ mosqueFilter: ['nyc0000001', 'nocoords01', 'unknown001'] })).json(),
    );
    expect(listed.data.created).toBe(1);
    expect(listed.data.skipped).toEqual([
      { mosque_id: 'nocoords01', mosque_name: 'No Coordinates', reason: "No coordinates or fixed Jumu'ah time" },
      { mosque_id: 'unknown001', mosque_name: null, reason: 'Unknown or inactive mosque' },
    ]);
    const text = scheduleResponseSchema.parse((await schedule({ mosqueFilter: 'lon0000001, syd0000001' })).json());
    expect(text.data.created).toBe(2);
    const all = scheduleResponseSchema.parse((await schedule({ mosqueFilter: [] })).json());
    expect(all.data).toMatchObject({ created: 3, unchanged: 3 });
  });

  it('schedules next week once this Friday’s recording window has ended', async () => {
    env.clock.set('2026-11-06T20:00:00Z'); // Friday evening in London, recording there ended at 14:55Z
    token = await s.login();
    await schedule({ mosqueFilter: ['lon0000001', 'lax0000001'] });
    const byMosque = Object.fromEntries((await recordingJobs()).map((j) => [j.mosque_id, j]));
    expect(byMosque.lon0000001.friday_date).toBe('2026-11-13');
    // Los Angeles' window (19:55Z-21:55Z) is still open: this Friday, launched at once.
    expect(byMosque.lax0000001.friday_date).toBe('2026-11-06');
  });

  it('refuses to schedule while the scheduler is stopped, and rejects malformed requests', async () => {
    expect((await s.request({ method: 'POST', url: '/api/scheduler/stop', token })).json().data.scheduler_running).toBe(
      false,
    );
    const refused = await schedule();
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      success: false,
      detail: SCHEDULER_NOT_RUNNING_MESSAGE,
      error: SCHEDULER_NOT_RUNNING_MESSAGE,
    });
    expect(await recordingJobs()).toHaveLength(0);

    expect(
      (await s.request({ method: 'POST', url: '/api/scheduler/start', token })).json().data.scheduler_running,
    ).toBe(true);
    expect((await schedule({ forceRefresh: 'yes' })).statusCode).toBe(400);
    expect((await schedule({ extra: 1 })).statusCode).toBe(400);
    expect((await schedule()).statusCode).toBe(200);
  });

  it('answers 503 with the reason when prayer times cannot be computed', async () => {
    const failing = () => Promise.reject(new Error('adhan is not available'));
    const broken = await env.build({ planner: { planFriday: failing, prayerTimes: failing, activeMosques: failing } });
    const brokenToken = await broken.login();
    for (const [method, url] of [
      ['POST', '/api/scheduler/schedule-friday'],
      ['GET', '/api/scheduler/prayer-times'],
    ] as const) {
      const response = await broken.request({
        method,
        url,
        token: brokenToken,
        payload: method === 'POST' ? {} : undefined,
      });
      expect(response.statusCode).toBe(503);
      expect(response.json().detail).toBe('Prayer times are unavailable: adhan is not available');
    }
  });

  it('needs a session on every scheduler call', async () => {
    for (const [method, url] of [
      ['GET', '/api/scheduler/status'],
      ['GET', '/api/scheduler/upcoming'],
      ['GET', '/api/scheduler/prayer-times'],
      ['GET', '/api/scheduler/jobs'],
      ['POST', '/api/scheduler/schedule-friday'],
      ['POST', '/api/scheduler/start'],
      ['POST', '/api/scheduler/stop'],
      ['POST', '/api/scheduler/cancel/x'],
    ] as const) {
      expect((await s.request({ method, url, payload: method === 'POST' ? {} : undefined })).statusCode, url).toBe(401);
    }
  });
});
