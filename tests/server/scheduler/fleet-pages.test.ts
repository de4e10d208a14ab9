import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fridayOfJobId, jobsResponseSchema, schedulerPrayerTimesResponseSchema } from '../../../contract/scheduler';
import { SchedulerEnv, type SchedulerApp } from './helpers';

/** Scheduling's lists at fleet size: Prayer Times and Active Jobs ask the server for one page. */
describe('scheduling pages', () => {
  let env: SchedulerEnv;
  let s: SchedulerApp;
  let token: string;

  beforeEach(async () => {
    env = await SchedulerEnv.create({ start: '2026-10-31T12:00:00Z' });
    s = await env.build({ realPlanner: true });
    token = await s.login();
    await s.request({ method: 'POST', url: '/api/scheduler/stop', token });
    const places = [
      { name: 'Mosque #955', timezone: 'Asia/Karachi', fixed_jumuah_time: '13:30' },
      { name: 'Mosque #95', timezone: 'Europe/London', latitude: 51.5074, longitude: -0.1278 },
      { name: 'mosque #9', timezone: 'America/New_York', latitude: 40.7128, longitude: -74.006 },
      { name: 'Mosque #100', timezone: 'Pacific/Auckland', latitude: -36.8485, longitude: 174.7633 },
      { name: 'Closed #1', timezone: 'Europe/London', latitude: 51.5, longitude: -0.12, active: false },
    ];
    for (const place of places) {
      const response = await s.request({
        method: 'POST',
        url: '/api/config/mosques',
        token,
        payload: { languages: ['en'], ID_token: 'https://streams.test/live.m3u8', ...place },
      });
      expect(response.statusCode, response.body).toBe(201);
    }
  });
  afterEach(() => env.dispose());

  const page = async (query: string) => {
    const response = await s.request({ method: 'GET', url: `/api/scheduler/prayer-times?${query}`, token });
    expect(response.statusCode, response.body).toBe(200);
    return schedulerPrayerTimesResponseSchema.parse(response.json()).data;
  };
  const names = (data: { prayer_times: { mosque_name: string }[] }) => data.prayer_times.map((p) => p.mosque_name);

  it('keeps the whole list without a page query, with no total', async () => {
    const data = await page('');
    expect(data.total).toBeUndefined();
    expect(data.prayer_times).toHaveLength(4);
  });

  it('pages the active mosques in natural name order, case ignored', async () => {
    const first = await page('limit=2&offset=0');
    expect(first.total).toBe(4);
    expect(names(first)).toEqual(['mosque #9', 'Mosque #95']);
    expect(names(await page('limit=2&offset=2'))).toEqual(['Mosque #100', 'Mosque #955']);
    expect(names(await page('limit=10&sort=mosque_name&order=desc'))).toEqual([
      'Mosque #955',
      'Mosque #100',
      'Mosque #95',
      'mosque #9',
    ]);
  });

  it('sorts by the recording start and searches the name, the id and the zone', async () => {
    const bySoonest = await page('limit=10&sort=recording_start');
    const starts = bySoonest.prayer_times.map((p) => Date.parse(p.recording_start));
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    // Auckland's Friday comes first, New York's last.
    expect(names(bySoonest)[0]).toBe('Mosque #100');
    expect(names(bySoonest).at(-1)).toBe('mosque #9');

    const london = await page('q=europe/lon');
    expect(names(london)).toEqual(['Mosque #95']);
    expect(london.total).toBe(1);
    const byId = await page(`q=${london.prayer_times[0].mosque_id}`);
    expect(names(byId)).toEqual(['Mosque #95']);
    expect(await page('q=nowhere')).toEqual({ prayer_times: [], total: 0 });
  });

  it('refuses an unknown sort or parameter with a sentence', async () => {
    for (const query of ['sort=city', 'limit=0', 'mosque_ids=a']) {
      const response = await s.request({ method: 'GET', url: `/api/scheduler/prayer-times?${query}`, token });
      expect(response.statusCode, query).toBe(400);
      expect(response.json().detail, query).toEqual(expect.any(String));
    }
  });

  it('pages the jobs, waiting ones first and soonest first, with the total', async () => {
    await s.request({ method: 'POST', url: '/api/scheduler/start', token });
    const scheduled = await s.request({ method: 'POST', url: '/api/scheduler/schedule-friday', token, payload: {} });
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    const jobsPage = async (query: string) => {
      const response = await s.request({ method: 'GET', url: `/api/scheduler/jobs?${query}`, token });
      expect(response.statusCode, response.body).toBe(200);
      return jobsResponseSchema.parse(response.json()).data;
    };
    const whole = await jobsPage('');
    expect(whole.total).toBeUndefined();
    // Four recordings and the recurring job.
    expect(whole.jobs).toHaveLength(5);
    const first = await jobsPage('limit=2');
    const second = await jobsPage('limit=2&offset=2');
    const third = await jobsPage('limit=2&offset=4');
    expect([first.total, second.total, third.total]).toEqual([5, 5, 5]);
    const paged = [...first.jobs, ...second.jobs, ...third.jobs];
    expect(new Set(paged.map((job) => job.id)).size).toBe(5);
    // A Friday job's id names its Friday: the console files its recording and alarms under it.
    for (const job of paged.filter((candidate) => candidate.kind === 'recording'))
      expect(fridayOfJobId(job.id)).toBe(job.friday_date);
    const runs = paged.map((job) => Date.parse(job.next_run_time ?? ''));
    expect(runs).toEqual([...runs].sort((a, b) => a - b));
    const refused = await s.request({ method: 'GET', url: '/api/scheduler/jobs?limit=0', token });
    expect(refused.statusCode).toBe(400);
  });
});
