import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jobsResponseSchema, type Job } from '../../../contract/scheduler';
import { systemClock } from '../../../server/lib/clock';
import { POLL_INTERVAL_MS } from '../../../server/modules/scheduler/policy';
import { SchedulerRepository } from '../../../server/modules/scheduler/repository';
import { SchedulerService } from '../../../server/modules/scheduler/service';
import {
  FixedTimePlanner,
  MemoryLauncher,
  MemoryPreflightChecks,
  silentAlarms,
} from '../../../testkit/scheduler-doubles';
import { waitFor } from '../../../testkit/wait';
import { messagesOf, scheduledFriday, SchedulerEnv, type SchedulerApp } from './helpers';

const AKL = 'friday-akl0000001-2026-11-06';
const AKL_START = '2026-11-05T23:40:00.000Z';

describe('a scheduler on an injected clock', () => {
  it("wakes on that clock's own timer as the clock moves, with nobody calling tick()", async () => {
    const env = await SchedulerEnv.create({ start: '2026-10-31T12:00:00Z' });
    try {
      const s = await env.build({ clockTimer: true });
      const token = await s.login();
      expect(
        (await s.request({ method: 'POST', url: '/api/scheduler/schedule-friday', token, payload: {} })).statusCode,
      ).toBe(200);

      env.clock.set('2026-11-05T23:39:59.000Z'); // the idle poll fires: nothing is due yet
      await s.app.ctx.scheduler.runner.idle();
      expect(s.launcher.launches).toHaveLength(0);
      expect(s.timer.armedDelayMs).toBeUndefined(); // the test's timer is not the one in use

      env.clock.advance(1000); // the wake-up armed for the Auckland start fires
      await s.app.ctx.scheduler.runner.idle();
      expect(s.launcher.launches.map((l) => l.jobId)).toEqual([AKL]);
    } finally {
      await env.dispose();
    }
  });
});

describe('firing scheduled recordings', () => {
  let env: SchedulerEnv;
  let s: SchedulerApp;
  let token: string;

  beforeEach(async () => {
    ({ env, s, token } = await scheduledFriday());
  });
  afterEach(() => env.dispose());

  const at = async (instant: string) => {
    env.clock.set(instant);
    token = await s.login();
  };
  const job = async (id: string): Promise<Job> => {
    const response = await s.request({ method: 'GET', url: '/api/scheduler/jobs?scope=all', token });
    const found = jobsResponseSchema.parse(response.json()).data.jobs.find((j) => j.id === id);
    if (!found) throw new Error(`job ${id} not listed`);
    return found;
  };

  it('arms its timer for the next due job, never longer than the poll interval', async () => {
    expect(s.timer.armedDelayMs).toBeLessThanOrEqual(POLL_INTERVAL_MS);
    await at('2026-11-05T23:39:59.250Z');
    await s.app.ctx.scheduler.tick();
    expect(s.timer.armedDelayMs).toBe(750);
  });

  it('launches a due job at its start time through the launcher, with the job id as idempotency key', async () => {
    await at('2026-11-05T23:39:59.000Z');
    await s.runDue();
    expect(s.launcher.launches).toHaveLength(0);

    await at(AKL_START);
    s.timer.trigger(); // what the real timer does when the armed delay has passed
    await s.app.ctx.scheduler.runner.idle();
    expect(s.launcher.launches).toEqual([
      {
        jobId: AKL,
        idempotencyKey: AKL,
        url: 'https://streams.test/akl.m3u8',
        duration: 7200,
        width: 1280,
        height: 720,
        mosqueId: 'akl0000001',
        instanceId: 'i-000001',
        windowStart: AKL_START,
        windowEnd: '2026-11-06T01:40:00.000Z',
      },
    ]);
    expect(await job(AKL)).toMatchObject({
      status: 'launched',
      instance_id: 'i-000001',
      launched_at: AKL_START,
      next_run_time: null,
      attempts: 1,
      late: false,
      last_error: null,
    });
    expect(messagesOf(s.published, 'launch_complete')).toEqual([
      {
        type: 'launch_complete',
        data: {
          instance_id: 'i-000001',
          mosque_id: 'akl0000001',
          job_id: AKL,
          message: 'Launched Friday recording: Auckland Mosque',
        },
      },
    ]);
    const upcoming = (await s.request({ method: 'GET', url: '/api/scheduler/upcoming', token })).json();
    expect(upcoming.data.upcoming_recordings.map((u: { job_id: string }) => u.job_id)).not.toContain(AKL);

    // Once its window has ended the job's outcome comes from its recording: it covers the whole window.
    await at('2026-11-06T01:40:00.000Z');
    await s.runDue();
    expect(await job(AKL)).toMatchObject({
      status: 'captured',
      covered_seconds: 7200,
      expected_seconds: 7200,
      outcome_reason: null,
      recording_id: 'rec-i-000001',
    });
  });

  it('retries a failed launch with back-off and reports each failure on the live feed', async () => {
    s.launcher.failNext(2, 'EC2 capacity unavailable');
    await at(AKL_START);
    await s.runDue();
    expect(await job(AKL)).toMatchObject({
      status: 'scheduled',
      attempts: 1,
      next_run_time: '2026-11-05T23:40:05.000Z',
      last_error: 'Attempt 1 of 5 failed: EC2 capacity unavailable',
    });
    expect(messagesOf(s.published, 'launch_error')[0]).toEqual({
      type: 'launch_error',
      data: {
        instance_id: null,
        mosque_id: 'akl0000001',
        job_id: AKL,
        message:
          'Launch of Friday recording: Auckland Mosque failed: Attempt 1 of 5 failed: EC2 capacity unavailable; retrying at 2026-11-05T23:40:05.000Z',
      },
    });
    expect(s.timer.armedDelayMs).toBe(0); // a launch ended: look again at once, then sleep until the retry

    await at('2026-11-05T23:40:04.999Z');
    await s.runDue();
    expect(s.launcher.calls).toBe(1);
    await at('2026-11-05T23:40:05.000Z');
    await s.runDue();
    expect(await job(AKL)).toMatchObject({
      status: 'scheduled',
      attempts: 2,
      next_run_time: '2026-11-05T23:40:20.000Z',
    });
    await at('2026-11-05T23:40:20.000Z');
    await s.runDue();
    expect(await job(AKL)).toMatchObject({
      status: 'launched',
      attempts: 3,
      last_error: null,
      instance_id: 'i-000001',
    });
    expect(s.launcher.launches[0].duration).toBe(7180); // ends with its window
    expect(messagesOf(s.published, 'launch_error')).toHaveLength(2);
    expect(messagesOf(s.published, 'launch_complete')).toHaveLength(1);
  });

  it('gives up after five attempts (5 s, 15 s, 45 s, 135 s apart)', async () => {
    s.launcher.failNext(10);
    const attemptTimes = [
      '2026-11-05T23:40:00.000Z',
      '2026-11-05T23:40:05.000Z',
      '2026-11-05T23:40:20.000Z',
      '2026-11-05T23:41:05.000Z',
      '2026-11-05T23:43:20.000Z',
    ];
    for (const instant of attemptTimes) {
      await at(instant);
      await s.runDue();
    }
    expect(s.launcher.calls).toBe(5);
    expect(await job(AKL)).toMatchObject({
      status: 'failed',
      attempts: 5,
      next_run_time: null,
      last_error: 'Attempt 5 of 5 failed: Capture provider unavailable',
    });
    expect(messagesOf(s.published, 'launch_error').at(-1)?.data).toMatchObject({
      message: expect.stringMatching(/giving up$/),
    });
    await at('2026-11-05T23:59:00.000Z');
    await s.runDue();
    expect(s.launcher.calls).toBe(5);
  });

  it('never schedules a retry past the end of the recording window', async () => {
    s.launcher.failNext(1);
    await at('2026-11-06T01:39:57.000Z'); // window ends 01:40:00, a retry would come at 01:40:02
    await s.runDue();
    expect(await job(AKL)).toMatchObject({ status: 'failed', attempts: 1, late: true });
    expect(messagesOf(s.published, 'launch_error')).toHaveLength(1);
  });

  it('cancels a job not yet launched, and says so for unknown, launched and recurring jobs', async () => {
    const cancel = (id: string) => s.request({ method: 'POST', url: `/api/scheduler/cancel/${id}`, token });
    const cancelled = await cancel(AKL);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({
      success: true,
      message: `Job ${AKL} cancelled`,
      data: { id: AKL, status: 'cancelled', next_run_time: null },
    });
    expect((await cancel(AKL)).json().message).toBe(`Job ${AKL} was already cancelled`);

    await at(AKL_START);
    await s.runDue();
    expect(s.launcher.launches).toHaveLength(0);

    const missing = await cancel('no-such-job');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().detail).toBe('Job no-such-job not found');

    await at('2026-11-06T01:25:00.000Z');
    await s.runDue();
    const launched = await cancel('friday-syd0000001-2026-11-06');
    expect(launched.statusCode).toBe(409);
    expect(launched.json().detail).toBe(
      'Job friday-syd0000001-2026-11-06 was already launched (instance i-000001); terminate the recording from Instances',
    );
    const recurring = await cancel('schedule-friday-recordings');
    expect(recurring.statusCode).toBe(409);
  });

  it('launches nothing while stopped, and stays stopped across a restart', async () => {
    await s.request({ method: 'POST', url: '/api/scheduler/stop', token });
    expect(s.timer.armedDelayMs).toBeUndefined();
    await at(AKL_START);
    await s.runDue();
    expect(s.launcher.calls).toBe(0);

    await env.stop(s);
    s = await env.build();
    token = await s.login();
    const status = (await s.request({ method: 'GET', url: '/api/scheduler/status', token })).json();
    expect(status.data.scheduler_running).toBe(false);
    await s.runDue();
    expect(s.launcher.calls).toBe(0);

    const started = await s.request({ method: 'POST', url: '/api/scheduler/start', token });
    expect(started.json()).toMatchObject({
      success: true,
      message: 'Scheduler started',
      data: { scheduler_running: true },
    });
    await s.app.ctx.scheduler.runner.idle();
    expect(s.launcher.launches.map((l) => l.jobId)).toEqual([AKL]);
  });

  it('runs the recurring job at 00:00 UTC: the coming Friday is scheduled without an operator', async () => {
    env.fixedPlanner.mosques.push({
      id: 'new0000001',
      name: 'New Mosque',
      url: 'https://streams.test/new.m3u8',
      timezone: 'Europe/Paris',
      fridayPrayer: '13:00',
    });
    await at('2026-10-31T23:59:59.000Z');
    await s.runDue();
    expect((await s.request({ method: 'GET', url: '/api/scheduler/status', token })).json().data.active_schedules).toBe(
      6,
    );
    await at('2026-11-01T00:00:00.000Z');
    await s.runDue();
    expect(await job('friday-new0000001-2026-11-06')).toMatchObject({
      status: 'scheduled',
      recording_start: '2026-11-06T11:40:00.000Z',
    });
    expect(await job('schedule-friday-recordings')).toMatchObject({
      next_run_time: '2026-11-02T00:00:00.000Z',
      last_error: null,
      attempts: 1,
    });
  });
});

describe('the real timer', () => {
  it('fires a due job on its own, with the system clock', async () => {
    const env = await SchedulerEnv.create();
    try {
      const s = await env.build();
      const launcher = new MemoryLauncher();
      const start = new Date(Date.now() + 300);
      const prayer = new Date(start.getTime() + 20 * 60_000);
      const hhmm = prayer.toISOString().slice(11, 16);
      const planner = new FixedTimePlanner([
        {
          id: 'rt00000001',
          name: 'Real Time',
          url: 'https://streams.test/rt.m3u8',
          timezone: 'UTC',
          fridayPrayer: hhmm,
        },
      ]);
      // A planner whose "Friday" is today: shift the plan onto the chosen instant.
      const todayPlanner = {
        prayerTimes: () => planner.prayerTimes(new Date()),
        activeMosques: () => planner.activeMosques(),
        planFriday: async (now: Date, filter: string[] | null) => {
          const plan = await planner.planFriday(now, filter);
          const prayerAt = new Date(Math.floor(prayer.getTime() / 1000) * 1000);
          return { ...plan, plans: plan.plans.map((p) => ({ ...p, prayerAt, recordingStart: start })) };
        },
      };
      const service = new SchedulerService({
        repository: new SchedulerRepository(s.app.ctx.db.kysely),
        planner: todayPlanner,
        launcher,
        clock: systemClock,
        timer: systemClock.timer(),
        publish: () => undefined,
        log: { info: () => undefined, warn: () => undefined, error: () => undefined },
        preflight: new MemoryPreflightChecks(),
        alarms: silentAlarms,
      });
      await service.boot();
      await service.scheduleFriday({});
      try {
        await waitFor(() => launcher.launches.length > 0, 'the launch on the real clock', 10_000, 50);
      } finally {
        await service.close();
      }
      expect(launcher.launches).toHaveLength(1);
    } finally {
      await env.dispose();
    }
  });
});
