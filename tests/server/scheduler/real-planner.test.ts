import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { alarmsResponseSchema } from '../../../contract/alarms';
import {
  jobsResponseSchema,
  scheduleResponseSchema,
  schedulerPrayerTimesResponseSchema,
  type Job,
} from '../../../contract/scheduler';
import { naturalSortKey } from '../../../contract/list-query';
import { zonedParts as wallClock } from '../../../server/geo/timezone';
import { SchedulerEnv, type SchedulerApp } from './helpers';

/** Scheduling against the real mosques and prayer-times services (adhan, IANA zones). */
describe('scheduling with the prayer-times service', () => {
  let env: SchedulerEnv;
  let s: SchedulerApp;
  let token: string;

  beforeEach(async () => {
    env = await SchedulerEnv.create({ start: '2026-10-31T12:00:00Z' });
    s = await env.build({ realPlanner: true });
    token = await s.login();
  });
  afterEach(() => env.dispose());

  const createMosque = async (body: Record<string, unknown>) => {
    const response = await s.request({
      method: 'POST',
      url: '/api/config/mosques',
      token,
      payload: { languages: ['en'], ...body },
    });
    if (response.statusCode >= 300) throw new Error(`mosque create failed: ${response.statusCode} ${response.body}`);
    await s.app.ctx.scheduler.settled();
    return response.json<{ data: { mosque_id: string } }>().data.mosque_id;
  };
  const jobs = async (): Promise<Record<string, Job>> => {
    const list = jobsResponseSchema.parse(
      (await s.request({ method: 'GET', url: '/api/scheduler/jobs', token })).json(),
    ).data.jobs;
    return Object.fromEntries(list.filter((j) => j.kind === 'recording').map((j) => [j.mosque_id, j]));
  };
  const schedule = async (payload: object = {}) =>
    scheduleResponseSchema.parse(
      (await s.request({ method: 'POST', url: '/api/scheduler/schedule-friday', token, payload })).json(),
    ).data;

  async function createWorld() {
    await s.request({ method: 'POST', url: '/api/scheduler/stop', token });
    const ids = {
      ny: await createMosque({
        mosque_id: 'newyork001',
        name: 'New York',
        latitude: 40.7128,
        longitude: -74.006,
        timezone: 'America/New_York',
        ID_token: 'https://streams.test/ny.m3u8',
      }),
      london: await createMosque({
        mosque_id: 'london0001',
        name: 'London',
        latitude: 51.5074,
        longitude: -0.1278,
        timezone: 'Europe/London',
        ID_token: 'UClondon',
      }),
      auckland: await createMosque({
        mosque_id: 'auckland01',
        name: 'Auckland',
        latitude: -36.8485,
        longitude: 174.7633,
        timezone: 'Pacific/Auckland',
        ID_token: 'https://streams.test/akl.m3u8',
      }),
      karachi: await createMosque({
        mosque_id: 'karachi001',
        name: 'Karachi',
        timezone: 'Asia/Karachi',
        fixed_jumuah_time: '13:30',
        ID_token: 'https://streams.test/khi.m3u8',
      }),
      nowhere: await createMosque({
        mosque_id: 'nowhere001',
        name: 'Nowhere',
        ID_token: 'https://streams.test/x.m3u8',
      }),
      silent: await createMosque({
        mosque_id: 'silent0001',
        name: 'Silent',
        latitude: 21.4225,
        longitude: 39.8262,
        timezone: 'Asia/Riyadh',
      }),
      inactive: await createMosque({
        mosque_id: 'inactive01',
        name: 'Inactive',
        active: false,
        latitude: 24.86,
        longitude: 67.0,
        timezone: 'Asia/Karachi',
        ID_token: 'x',
      }),
    };
    await s.request({ method: 'POST', url: '/api/scheduler/start', token });
    return ids;
  }

  it('schedules each active mosque at Dhuhr (or its fixed time) minus 20 minutes on its local Friday, DST-correct', async () => {
    await createWorld();
    // Starting the scheduler planned every active mosque already; scheduling again changes nothing.
    const result = await schedule();
    expect(result).toMatchObject({ scheduled: 4, created: 0, unchanged: 4 });
    expect(result.skipped.map((x) => [x.mosque_id, x.reason])).toEqual([
      ['nowhere001', "No coordinates or fixed Jumu'ah time"],
      ['silent0001', 'Mosque has no stream identifier (ID_token)'],
    ]);
    const byMosque = await jobs();
    expect(Object.keys(byMosque).sort()).toEqual(['auckland01', 'karachi001', 'london0001', 'newyork001']);

    for (const job of Object.values(byMosque)) {
      const prayer = new Date(job.prayer_time ?? '');
      expect(Date.parse(job.recording_start ?? '')).toBe(prayer.getTime() - 20 * 60_000);
      expect(job.friday_date).toBe('2026-11-06');
      const local = wallClock(prayer, job.timezone ?? 'UTC');
      expect(new Date(Date.UTC(local.year, local.month - 1, local.day)).getUTCDay()).toBe(5);
      // The service's own record for that Friday is what was scheduled.
      const mosque = await s.app.ctx.mosques.get(job.mosque_id ?? '');
      expect(s.app.ctx.prayerTimes.fridayPrayerOn(mosque, '2026-11-06')?.friday_prayer).toBe(job.prayer_time);
    }
    // New York on 6 November is on EST (UTC-5): Dhuhr around 11:45 local, 16:45 UTC.
    const ny = wallClock(new Date(byMosque.newyork001.prayer_time ?? ''), 'America/New_York');
    expect(ny.hour * 60 + ny.minute).toBeGreaterThan(11 * 60 + 30);
    expect(ny.hour * 60 + ny.minute).toBeLessThan(12 * 60);
    expect(new Date(byMosque.newyork001.prayer_time ?? '').getUTCHours()).toBe(ny.hour + 5);
    // London on 6 November is on GMT.
    const lon = wallClock(new Date(byMosque.london0001.prayer_time ?? ''), 'Europe/London');
    expect(new Date(byMosque.london0001.prayer_time ?? '').getUTCHours()).toBe(lon.hour);
    expect(byMosque.london0001.url).toBe('https://www.youtube.com/channel/UClondon/live');
    // Auckland's Friday noon is Thursday evening in UTC.
    expect(byMosque.auckland01.recording_start?.slice(0, 10)).toBe('2026-11-05');
    expect(byMosque.karachi001).toMatchObject({
      prayer_time: '2026-11-06T08:30:00.000Z',
      recording_start: '2026-11-06T08:10:00.000Z',
    });

    const times = schedulerPrayerTimesResponseSchema.parse(
      (await s.request({ method: 'GET', url: '/api/scheduler/prayer-times', token })).json(),
    );
    expect(times.data.prayer_times.map((p) => p.mosque_id).sort()).toEqual([
      'auckland01',
      'karachi001',
      'london0001',
      'newyork001',
      'silent0001',
    ]);
    expect(times.data.prayer_times.find((p) => p.mosque_id === 'karachi001')).toMatchObject({
      prayer_time: '13:30',
      recording_time: '13:10',
      calculation_method: 'Fixed',
    });

    expect((await schedule()).created).toBe(0);
  });

  it('still records this Friday when scheduled after the prayer began but before its recording window ends', async () => {
    await createWorld();
    env.clock.set('2026-11-06T17:40:00Z'); // New York's Dhuhr (~16:45Z) has begun; its recording runs until ~18:25Z
    token = await s.login();
    await schedule({ mosqueFilter: ['newyork001', 'london0001'] });
    const byMosque = await jobs();
    expect(byMosque.newyork001.friday_date).toBe('2026-11-06');
    expect(byMosque.london0001.friday_date).toBe('2026-11-13');
  });

  it('follows mosque changes while running: new mosques planned, new times applied, deactivated mosques dropped', async () => {
    const id = await createMosque({
      name: 'Fixed Time',
      timezone: 'Europe/Paris',
      fixed_jumuah_time: '13:00',
      ID_token: 'https://streams.test/p.m3u8',
    });
    expect((await jobs())[id]).toMatchObject({ status: 'scheduled', prayer_time: '2026-11-06T12:00:00.000Z' });

    await s.request({
      method: 'PUT',
      url: `/api/config/mosques/${id}`,
      token,
      payload: { fixed_jumuah_time: '13:30' },
    });
    await s.app.ctx.scheduler.settled();
    expect((await jobs())[id]).toMatchObject({
      status: 'scheduled',
      prayer_time: '2026-11-06T12:30:00.000Z',
      recording_start: '2026-11-06T12:10:00.000Z',
    });

    await s.request({ method: 'PUT', url: `/api/config/mosques/${id}`, token, payload: { active: false } });
    await s.app.ctx.scheduler.settled();
    expect((await jobs())[id]).toMatchObject({
      status: 'cancelled',
      last_error: 'Cancelled: the mosque is no longer active',
    });
  });

  it('plans the Friday again when a mosque is reactivated or re-created, unless an operator cancelled it', async () => {
    const body = {
      mosque_id: 'paris00001',
      name: 'Paris',
      timezone: 'Europe/Paris',
      fixed_jumuah_time: '13:00',
      ID_token: 'https://streams.test/p.m3u8',
    };
    const put = async (payload: object) => {
      await s.request({ method: 'PUT', url: '/api/config/mosques/paris00001', token, payload });
      await s.app.ctx.scheduler.settled();
    };
    await createMosque(body);
    await put({ active: false });
    expect((await jobs()).paris00001.status).toBe('cancelled');
    await put({ active: true });
    expect((await jobs()).paris00001).toMatchObject({
      status: 'scheduled',
      recording_start: '2026-11-06T11:40:00.000Z',
      last_error: null,
    });

    await s.request({ method: 'DELETE', url: '/api/config/mosques/paris00001', token });
    await s.app.ctx.scheduler.settled();
    expect((await jobs()).paris00001.status).toBe('cancelled');
    await createMosque(body);
    expect((await jobs()).paris00001.status).toBe('scheduled');
    // Even a forced refresh keeps an operator's cancellation: Restore is the way back.
    await s.request({ method: 'POST', url: '/api/scheduler/cancel/friday-paris00001-2026-11-06', token });
    await schedule({ forceRefresh: true });
    expect((await jobs()).paris00001.status).toBe('cancelled');
  });

  it('counts edits and deletions made while stopped once started again', async () => {
    const ids = await createWorld();
    expect((await jobs()).karachi001.recording_start).toBe('2026-11-06T08:10:00.000Z');
    await s.request({ method: 'POST', url: '/api/scheduler/stop', token });
    await s.request({
      method: 'PUT',
      url: `/api/config/mosques/${ids.karachi}`,
      token,
      payload: { fixed_jumuah_time: '14:00' },
    });
    await s.request({ method: 'DELETE', url: `/api/config/mosques/${ids.london}`, token });
    await s.app.ctx.scheduler.settled();
    expect((await jobs()).london0001.status).toBe('scheduled');

    await s.request({ method: 'POST', url: '/api/scheduler/start', token });
    const byMosque = await jobs();
    expect(byMosque.karachi001.recording_start).toBe('2026-11-06T08:40:00.000Z');
    expect(byMosque.london0001).toMatchObject({
      status: 'cancelled',
      last_error: 'Cancelled: the mosque is no longer active',
    });
  });

  it('raises an unschedulable alarm for an active mosque that cannot be planned, resolved once it is fixed', async () => {
    await createMosque({ mosque_id: 'nocoord001', name: 'No Coordinates', ID_token: 'https://streams.test/n.m3u8' });
    const open = async () =>
      alarmsResponseSchema
        .parse((await s.request({ method: 'GET', url: '/api/alarms', token })).json())
        .data.alarms.filter((a) => a.kind === 'unschedulable');
    expect((await open()).map((a) => [a.mosque_id, a.message])).toEqual([
      ['nocoord001', "No Coordinates cannot be scheduled: No coordinates or fixed Jumu'ah time"],
    ]);
    await s.request({
      method: 'PUT',
      url: '/api/config/mosques/nocoord001',
      token,
      payload: { fixed_jumuah_time: '13:00', timezone: 'Asia/Karachi' },
    });
    await s.app.ctx.scheduler.settled();
    expect(await open()).toEqual([]);
    expect((await jobs()).nocoord001.status).toBe('scheduled');
  });

  /** 600 active mosques written straight into the database: no re-planning of each, a plan takes them all at once. */
  const FLEET = 600;
  const fleetId = (i: number) => `fleet${String(i).padStart(5, '0')}`;
  async function seedFleet(count = FLEET) {
    const now = new Date().toISOString();
    const fleet = Array.from({ length: count }, (_, i) => ({
      mosque_id: fleetId(i),
      name: `Fleet ${i}`,
      name_sort: naturalSortKey(`Fleet ${i}`),
      name_ar: null,
      google_maps_url: null,
      languages: '["en"]',
      id_token: `https://streams.test/fleet${i}.m3u8`,
      active: 1,
      broadcast_status: 'inactive' as const,
      latitude: 21.4 + i / 1000,
      longitude: 39.8,
      timezone: 'Asia/Riyadh',
      city: null,
      district: null,
      country: null,
      country_code: null,
      coordinates_method: 'manual',
      calculation_method: null,
      fixed_jumuah_time: null,
      created_at: now,
      updated_at: now,
    }));
    // In chunks: one statement may carry at most 32,766 values on SQLite.
    for (let at = 0; at < fleet.length; at += 1000)
      await s.app.ctx.db.kysely
        .insertInto('mosques')
        .values(fleet.slice(at, at + 1000))
        .execute();
  }

  it('lets waiting requests in while it plans a fleet, instead of holding the server for the whole of it', async () => {
    await seedFleet();
    // Counts the event-loop turns that other work got while the request ran. SQLite answers every query
    // at once, so without a deliberate break the plan ran within one turn: 2 turns in all, the
    // request's own (measured).
    let turns = 0;
    let planning = true;
    const countTurns = () => {
      if (!planning) return;
      turns += 1;
      setImmediate(countTurns);
    };
    setImmediate(countTurns);
    const result = await schedule();
    planning = false;
    expect(result.created).toBe(FLEET);
    // Planning 600 mosques and inserting their jobs, with a break every 250 of each: 4 more.
    expect(turns).toBeGreaterThanOrEqual(6);
  });

  /**
   * Plans a fleet of `fleet` mosques on this server; a few event-loop turns in (the plan between its
   * slices), `deleter` deletes the last mosque. No job of that mosque may be left scheduled.
   */
  async function deleteDuringFleetPlan(fleet: number, deleter: SchedulerApp) {
    await seedFleet(fleet);
    const last = fleetId(fleet - 1);
    const planned = schedule();
    for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
    const deleted = await deleter.request({ method: 'DELETE', url: `/api/config/mosques/${last}`, token });
    expect(deleted.statusCode).toBe(200);
    await planned;
    // The deleter's re-plan of the mosque runs after the fleet plan (on another server: it waits for its lease) and cancels its job.
    await deleter.app.ctx.scheduler.settled();
    const pending = await s.app.ctx.db.kysely
      .selectFrom('scheduler_jobs')
      .select(['id', 'status'])
      .where('mosque_id', '=', last)
      .where('status', '=', 'scheduled')
      .execute();
    expect(pending).toEqual([]);
    expect(Object.keys(await jobs())).toContain(fleetId(0));
  }

  it('does not plan a mosque deleted while a fleet plan is under way', async () => {
    await deleteDuringFleetPlan(FLEET, s);
  });

  it('does not plan a mosque deleted on another server while this one plans the fleet', async () => {
    // Big enough that the other server deletes and re-plans well before this plan writes its jobs.
    await deleteDuringFleetPlan(3000, await env.build({ realPlanner: true }));
  });
});
