import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { alarmsResponseSchema, type Alarm } from '../../../contract/alarms';
import { jobsResponseSchema, type Job } from '../../../contract/scheduler';
import { scheduledFriday, type SchedulerEnv, type SchedulerApp } from './helpers';

/** Times of 2026-11-06 (UTC) for the mosques of WORLD_MOSQUES. */
const JOB = (mosque: string) => `friday-${mosque}-2026-11-06`;
const AKL = JOB('akl0000001');
const SYD = JOB('syd0000001');
const KHI = JOB('khi0000001');
const LON = JOB('lon0000001');
const NYC = JOB('nyc0000001');

describe('a recording job ends by what its media holds', () => {
  let env: SchedulerEnv;
  let s: SchedulerApp;
  let token: string;

  beforeEach(async () => {
    ({ env, s, token } = await scheduledFriday());
  });
  afterEach(() => env.dispose());

  const runAt = async (instant: string) => {
    env.clock.set(instant);
    token = await s.login();
    await s.runDue();
  };
  const jobs = async (): Promise<Record<string, Job>> => {
    const response = await s.request({ method: 'GET', url: '/api/scheduler/jobs?scope=all', token });
    return Object.fromEntries(jobsResponseSchema.parse(response.json()).data.jobs.map((job) => [job.id, job]));
  };
  const openAlarms = async (): Promise<Alarm[]> =>
    alarmsResponseSchema.parse((await s.request({ method: 'GET', url: '/api/alarms?status=open', token })).json()).data
      .alarms;

  it('is captured at 99% of the window, failed with no media, partial when launched 95 minutes late', async () => {
    await runAt('2026-11-05T23:40:00.000Z');
    const akl = (await jobs())[AKL].instance_id ?? '';
    s.launcher.setRecording(akl, { inProgress: false, coveredSeconds: 7150, gaps: [], reason: null });
    await runAt('2026-11-06T01:25:00.000Z');
    const syd = (await jobs())[SYD].instance_id ?? '';
    s.launcher.setRecording(syd, {
      inProgress: false,
      coveredSeconds: 0,
      gaps: [],
      reason: 'the stream never came (HTTP 404)',
    });

    await runAt('2026-11-06T03:30:00.000Z');
    let byId = await jobs();
    expect(byId[AKL]).toMatchObject({
      status: 'captured',
      covered_seconds: 7150,
      expected_seconds: 7200,
      outcome_reason: null,
    });
    expect(byId[SYD]).toMatchObject({
      status: 'failed',
      covered_seconds: 0,
      outcome_reason: 'No media was recorded: the stream never came (HTTP 404)',
    });

    // No recording at all behind a launched job: failed, and an alarm says so (the recorder cannot).
    await runAt('2026-11-06T08:10:00.000Z');
    s.launcher.setRecording((await jobs())[KHI].instance_id ?? '', null);
    await runAt('2026-11-06T10:15:00.000Z');
    expect((await jobs())[KHI]).toMatchObject({
      status: 'failed',
      outcome_reason: expect.stringMatching(/^No recording was found for instance i-\d+/),
    });
    expect((await openAlarms()).filter((a) => a.job_id === KHI).map((a) => [a.kind, a.severity])).toEqual([
      ['capture_failed', 'critical'],
    ]);

    // 95 minutes late: the recorder covers the last 25 minutes in full, which is 20% of the window.
    await runAt('2026-11-06T14:30:00.000Z');
    expect((await jobs())[LON]).toMatchObject({ status: 'launched', late: true });
    await runAt('2026-11-06T14:55:00.000Z');
    byId = await jobs();
    expect(byId[LON]).toMatchObject({ status: 'partial', covered_seconds: 1500, expected_seconds: 7200 });
    expect(byId[LON].outcome_reason).toBe(
      'Recorded 25 min of 2 h (20%); launched 1 h 35 min after the recording start',
    );
  });

  it('waits for a recorder still finishing its file, then judges what it has, with its gaps', async () => {
    await runAt('2026-11-06T17:10:00.000Z');
    const nyc = (await jobs())[NYC].instance_id ?? '';
    const gaps = [
      { start: '2026-11-06T17:10:00Z', end: '2026-11-06T17:20:00Z', reason: 'stream not live yet' },
      { start: '2026-11-06T18:00:00Z', end: '2026-11-06T18:01:30Z', reason: 'stall' },
    ];
    s.launcher.setRecording(nyc, { inProgress: true, coveredSeconds: 6500, gaps, reason: null });
    await runAt('2026-11-06T19:15:00.000Z');
    expect((await jobs())[NYC].status).toBe('launched');
    s.launcher.setRecording(nyc, { inProgress: false, coveredSeconds: 6510, gaps, reason: null });
    await runAt('2026-11-06T19:16:00.000Z');
    expect((await jobs())[NYC]).toMatchObject({
      status: 'partial',
      covered_seconds: 6510,
      outcome_reason: 'Recorded 1 h 48 min of 2 h (90%); 2 gaps: stream not live yet (10 min), stall (1 min 30 s)',
    });
  });

  it('judges a recorder that never finishes once the grace after the window has passed', async () => {
    await runAt('2026-11-06T17:10:00.000Z');
    s.launcher.setRecording((await jobs())[NYC].instance_id ?? '', {
      inProgress: true,
      coveredSeconds: 3000,
      gaps: [],
      reason: null,
    });
    await runAt('2026-11-06T19:19:00.000Z');
    expect((await jobs())[NYC].status).toBe('launched');
    await runAt('2026-11-06T19:21:00.000Z');
    expect((await jobs())[NYC]).toMatchObject({ status: 'partial', covered_seconds: 3000 });
  });

  it('never judges a recording from the last reading of a dead server; judges it once it is followed again', async () => {
    await runAt('2026-11-06T17:10:00.000Z');
    const nyc = (await jobs())[NYC].instance_id ?? '';
    // Its server died 13% into the window; nobody has taken its recorder over yet.
    s.launcher.setRecording(nyc, { inProgress: true, coveredSeconds: 936, gaps: [], reason: null, unattended: true });
    await runAt('2026-11-06T20:30:00.000Z');
    expect((await jobs())[NYC].status, 'still waiting long after the grace').toBe('launched');
    // Adopted by a server on its host: the recorder had recorded on, and ends with its whole window.
    s.launcher.setRecording(nyc, { inProgress: false, coveredSeconds: 7200, gaps: [], reason: null });
    await runAt('2026-11-06T20:31:00.000Z');
    expect((await jobs())[NYC]).toMatchObject({ status: 'captured', covered_seconds: 7200 });
  });
});
