import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../testkit/manual-clock';
import { BREAKER_QUIET_MS } from '../../../server/modules/instances/launch-breaker';
import { MAX_LAUNCH_RETRIES } from '../../../server/modules/instances/relaunch';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { RemoteFleet } from './remote-fleet';

// PostgreSQL pass: skipped: the breaker is this server's memory; the rows it touches are the relaunch's, covered by fleet-relaunch

/*
 * Machines that end without recording anything (no egress, a broken image) are launch failures: a
 * recording gets at most MAX_LAUNCH_RETRIES more machines, and 5 such recordings within 10 minutes
 * open the fleet's breaker: no launch or relaunch starts, one critical alarm quotes the failed
 * machine's console, and it closes after a quiet period or when an operator closes it.
 */
describe('bounded relaunches and the launch breaker', () => {
  let t: TestApp;
  let fleet: RemoteFleet;
  const T0 = Date.parse('2026-11-27T11:40:00.000Z');
  const at = (s: number) => new Date(T0 + s * 1000);
  const config = (n: number) => ({
    url: `https://streams.example.org/broken/${n}.m3u8`,
    duration: 3600,
    width: 640,
    height: 360,
    mosque_id: null,
    method: 'api',
  });
  const BOOT_ERROR = [
    'cloud-init: running user-data',
    'curl: (28) Connection timed out after 30001 ms',
    'recorder runtime could not be fetched; powering off',
  ];

  beforeEach(async () => {
    const clock = new ManualClock(at(0));
    fleet = new RemoteFleet(clock);
    t = await createTestApp({ clock, build: { captureDriver: fleet } });
  });
  afterEach(() => t.close());

  const launch = async (n: number) =>
    (
      await t.app.ctx.capture.launch(config(n), {
        idempotencyKey: `broken-${n}`,
        windowStart: at(0).toISOString(),
        windowEnd: at(3600).toISOString(),
      })
    ).launchId;
  const machinesOf = (id: string) => fleet.machines.filter((m) => m.launchId === id);
  /** Every running machine dies at once, printing the boot error, as a systematic fault makes them. */
  const killRunning = () => {
    for (const machine of fleet.machines.filter((m) => m.endedAt === null)) {
      fleet.consoles.set(machine.id, BOOT_ERROR);
      fleet.kill(machine.id, 'Client.InstanceInitiatedShutdown');
    }
  };
  const passAt = async (s: number) => {
    t.clock.set(at(s));
    await t.app.ctx.instances.reconcile();
  };
  const breakerAlarms = async () =>
    (await t.app.ctx.alarms.list('all', 100)).filter((alarm) => alarm.kind === 'launch_breaker');

  it(`gives a recording whose machines die at once ${MAX_LAUNCH_RETRIES} more machines, no more`, async () => {
    const id = await launch(1);
    await passAt(0);
    for (let s = 10; s <= 60; s += 10) {
      killRunning();
      await passAt(s);
    }
    expect(machinesOf(id)).toHaveLength(1 + MAX_LAUNCH_RETRIES);
    expect(await t.app.ctx.instances.resolve(id)).toMatchObject({ state: 'terminated' });
    const [recording] = await t.app.ctx.recordings.list({ limit: 10, instance_id: id });
    expect(recording).toMatchObject({ status: 'failed', covered_seconds: 0 });
    // One recording is no systematic fault: the breaker stays closed.
    expect(await breakerAlarms()).toEqual([]);
  });

  it('takes a machine that ran well into its window and left no result for a death mid-window, not a launch failure', async () => {
    const id = await launch(1);
    await passAt(0);
    for (let n = 1; n <= 4; n++) {
      const machine = machinesOf(id).at(-1)!;
      t.clock.set(at(n * 300));
      fleet.withoutResult.add(machine.id);
      fleet.kill(machine.id, 'Server.InternalError');
      await passAt(n * 300 + 10);
    }
    // Four deaths, each after minutes of recording: four relaunches, where launch failures would stop at two.
    expect(machinesOf(id)).toHaveLength(5);
    expect(await breakerAlarms()).toEqual([]);
  });

  it('opens after 5 recordings fail to launch in 10 minutes: nothing starts, one critical alarm, then it closes', async () => {
    const ids = [];
    for (let n = 1; n <= 5; n++) ids.push(await launch(n));
    await passAt(0);
    killRunning();
    await passAt(20);
    // The first four were relaunched before the fifth failure opened the breaker; the fifth is held.
    expect(ids.map((id) => machinesOf(id).length)).toEqual([2, 2, 2, 2, 1]);
    const [alarm, ...more] = await breakerAlarms();
    expect(more).toEqual([]);
    expect(alarm).toMatchObject({ severity: 'critical', resolved_at: null });
    expect(alarm.message).toContain('the machines of 5 recordings ended without recording anything');
    expect(alarm.message).toContain('curl: (28) Connection timed out after 30001 ms');
    expect(await t.app.ctx.instances.resolve(ids[4])).toMatchObject({
      state: 'running',
      state_reason: expect.stringMatching(/relaunch held/),
    });

    // No new launch, no relaunch while it is open; further failures raise no second alarm.
    await expect(launch(6)).rejects.toThrow(/Launches are held/);
    const machines = fleet.machines.length;
    killRunning();
    await passAt(40);
    await passAt(300);
    expect(fleet.machines).toHaveLength(machines);
    expect(await breakerAlarms()).toHaveLength(1);

    // Quiet for BREAKER_QUIET_MS since the last failure: it closes, the held relaunches go ahead.
    await passAt(40 + BREAKER_QUIET_MS / 1000);
    expect((await breakerAlarms())[0].resolved_at).toBe(at(40 + BREAKER_QUIET_MS / 1000).toISOString());
    expect(machinesOf(ids[4])).toHaveLength(2);
    expect(await launch(6)).toMatch(/^cap-/);
  });

  it('closes when an operator closes it', async () => {
    for (let n = 1; n <= 5; n++) await launch(n);
    await passAt(0);
    killRunning();
    await passAt(20);
    await expect(launch(6)).rejects.toThrow(/Launches are held/);

    const token = await t.login();
    const closed = await t.request({ method: 'POST', url: '/api/instances/launch-breaker/close', token });
    expect(closed.statusCode, closed.body).toBe(200);
    expect((await breakerAlarms())[0].resolved_at).not.toBeNull();
    expect(await launch(6)).toMatch(/^cap-/);
  });
});
