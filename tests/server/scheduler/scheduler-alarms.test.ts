import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { alarmsResponseSchema, type Alarm } from '../../../contract/alarms';
import { MemoryPreflightChecks } from '../../../testkit/scheduler-doubles';
import { scheduledFriday, type SchedulerEnv, type SchedulerApp } from './helpers';

const NYC = 'friday-nyc0000001-2026-11-06';
const LON = 'friday-lon0000001-2026-11-06';

describe('alarms the scheduler raises', () => {
  let env: SchedulerEnv;
  let s: SchedulerApp;
  let token: string;
  let checks: MemoryPreflightChecks;

  beforeEach(async () => {
    checks = new MemoryPreflightChecks();
    ({ env, s, token } = await scheduledFriday({ preflight: checks }));
  });
  afterEach(() => env.dispose());

  const runAt = async (instant: string) => {
    env.clock.set(instant);
    token = await s.login();
    await s.runDue();
  };
  const alarms = async (status: 'open' | 'all' = 'open'): Promise<Alarm[]> =>
    alarmsResponseSchema.parse((await s.request({ method: 'GET', url: `/api/alarms?status=${status}`, token })).json())
      .data.alarms;

  it('raises launch_failed once the retries are spent, and missed for a Friday never launched', async () => {
    s.launcher.failNext(5, 'EC2 capacity unavailable');
    for (const at of ['17:10:00', '17:10:05', '17:10:20', '17:11:05', '17:13:20']) await runAt(`2026-11-06T${at}.000Z`);
    const failed = (await alarms()).filter((a) => a.kind === 'launch_failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({
      severity: 'critical',
      job_id: NYC,
      mosque_id: 'nyc0000001',
      mosque_name: 'New York Mosque',
    });
    expect(failed[0].message).toMatch(/could not be launched after 5 attempts: EC2 capacity unavailable/);

    await s.request({ method: 'POST', url: '/api/scheduler/stop', token });
    env.clock.set('2026-11-06T22:00:00.000Z');
    await s.request({ method: 'POST', url: '/api/scheduler/start', token });
    await s.app.ctx.scheduler.runner.idle();
    // The earlier mosques were missed at 17:10 already (the test jumped there); Los Angeles while stopped.
    const missed = (await alarms()).filter((a) => a.kind === 'missed');
    expect(missed.map((a) => a.mosque_id).sort()).toEqual([
      'akl0000001',
      'khi0000001',
      'lax0000001',
      'lon0000001',
      'syd0000001',
    ]);
    expect(missed.find((a) => a.mosque_id === 'lax0000001')?.message).toBe(
      'Los Angeles Mosque: the Friday recording was never launched (Recording window ended before the scheduler could launch it)',
    );
  });

  it('checks provider, stream and disk 10 minutes before a start, and resolves each when it clears', async () => {
    checks.providerProblem = 'EC2 API unreachable';
    checks.badStreams.set('https://streams.test/lon.m3u8', 'yt-dlp: this live event has ended');
    checks.free = 1e9; // London, New York and Los Angeles need 6 h of recording, ~2.4 GB
    await runAt('2026-11-06T12:44:00.000Z');
    expect((await alarms()).filter((a) => a.kind === 'preflight')).toEqual([]);

    await runAt('2026-11-06T12:46:00.000Z');
    const raised = (await alarms()).filter((a) => a.kind === 'preflight');
    expect(raised.map((a) => [a.severity, a.job_id, a.message]).sort()).toEqual(
      [
        [
          'critical',
          LON,
          'Pre-flight: the stream of London Mosque cannot be resolved (yt-dlp: this live event has ended); recording starts at 2026-11-06T12:55:00.000Z',
        ],
        [
          'critical',
          null,
          "Pre-flight: 1.0 GB free for recordings, but this Friday's 3 local recordings (6 h in all) need about 2.4 GB; 1 due within 10 minutes",
        ],
        [
          'critical',
          null,
          'Pre-flight: the capture provider is not healthy (EC2 API unreachable); 1 recording due within 10 minutes',
        ],
      ].sort(),
    );

    checks.providerProblem = null;
    checks.free = 10e9;
    await runAt('2026-11-06T12:46:10.000Z'); // within the 30 s between rounds: nothing re-checked yet
    expect((await alarms()).filter((a) => a.kind === 'preflight')).toHaveLength(3);
    await runAt('2026-11-06T12:46:40.000Z');
    expect((await alarms()).filter((a) => a.kind === 'preflight').map((a) => a.job_id)).toEqual([LON]);
    // The stream alarm lasts until the launch: then the recorder's own alarms take over.
    await runAt('2026-11-06T12:55:00.000Z');
    expect((await alarms()).filter((a) => a.kind === 'preflight')).toEqual([]);
    expect((await alarms('all')).filter((a) => a.kind === 'preflight' && a.resolved_at !== null)).toHaveLength(3);
  });

  it('asks the provider again before raising: one probe that times out under load is no alarm', async () => {
    checks.providerTimeouts = 1;
    await runAt('2026-11-06T12:46:00.000Z');
    expect(checks.providerProbes).toBe(2);
    expect((await alarms()).filter((a) => a.kind === 'preflight')).toEqual([]);
    // Failing again when asked again: a real outage is raised in the same round.
    checks.providerProblem = 'EC2 API unreachable';
    await runAt('2026-11-06T12:46:40.000Z');
    expect(checks.providerProbes).toBe(4);
    expect((await alarms()).filter((a) => a.kind === 'preflight').map((a) => a.message)).toEqual([
      'Pre-flight: the capture provider is not healthy (EC2 API unreachable); 1 recording due within 10 minutes',
    ]);
  });
});
