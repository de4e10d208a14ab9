import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../testkit/manual-clock';
import { MAX_FLEET_RELAUNCHES } from '../../../server/modules/instances/relaunch';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { RemoteFleet } from './remote-fleet';

/**
 * On a driver that does not supervise its recorders (EC2-like), the fleet's reconcile pass relaunches
 * a recorder that ends inside its window: at once, under the same instance and recording rows, at
 * most MAX_FLEET_RELAUNCHES times, never after an operator's terminate or near the window's end. The
 * recording is what its runs covered together.
 */
describe('the fleet relaunches recorders that end inside their window', () => {
  let t: TestApp;
  let fleet: RemoteFleet;
  const T0 = Date.parse('2026-11-27T11:40:00.000Z');
  const at = (s: number) => new Date(T0 + s * 1000);
  const config = {
    url: 'https://streams.example.org/relaunch/live.m3u8',
    duration: 600,
    width: 640,
    height: 360,
    mosque_id: 'relaunch1',
    method: 'api',
  };

  beforeEach(async () => {
    const clock = new ManualClock(at(0));
    fleet = new RemoteFleet(clock);
    t = await createTestApp({ clock, build: { captureDriver: fleet } });
  });
  afterEach(() => t.close());

  const launch = async (key: string) => {
    const launched = await t.app.ctx.capture.launch(config, {
      idempotencyKey: key,
      windowStart: at(0).toISOString(),
      windowEnd: at(600).toISOString(),
    });
    await t.app.ctx.instances.reconcile();
    return launched.launchId;
  };
  const rowOf = (id: string) =>
    t.app.ctx.db.kysely.selectFrom('instances').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const recordingsOf = (id: string) => t.app.ctx.recordings.list({ limit: 10, instance_id: id });
  const alarmsOf = async (id: string) => (await t.app.ctx.alarms.list('all', 100)).filter((a) => a.instance_id === id);
  const current = async (id: string) => (await rowOf(id)).provider_instance_id as string;

  it('starts a new recorder within one pass of the early end, and the recording is the union of the runs', async () => {
    const id = await launch('relaunch-union');
    expect(await current(id)).toBe('m-1');

    t.clock.set(at(200));
    fleet.kill('m-1');
    t.clock.set(at(205)); // the reconcile pass after the end (aws: every 10 s)
    await t.app.ctx.instances.reconcile();

    expect(fleet.machines.map((m) => [m.id, m.launchId, m.startedAt])).toEqual([
      ['m-1', id, T0],
      ['m-2', id, at(205).getTime()],
    ]);
    expect(await rowOf(id)).toMatchObject({
      provider_instance_id: 'm-2',
      state: 'pending',
      ended_at: null,
      window_end: at(600).toISOString(),
    });
    const [recording] = await recordingsOf(id);
    expect(recording).toMatchObject({ status: 'recording', covered_seconds: 200 });
    expect(await alarmsOf(id)).toEqual([expect.objectContaining({ kind: 'recorder_died', resolved_at: null })]);

    // The ended machine is still listed: its end is not the row's.
    t.clock.set(at(300));
    await t.app.ctx.instances.reconcile();
    expect(await rowOf(id)).toMatchObject({ provider_instance_id: 'm-2', state: 'running' });

    t.clock.set(at(610));
    await t.app.ctx.instances.reconcile();
    const recordings = await recordingsOf(id);
    expect(recordings).toHaveLength(1);
    expect(recordings[0]).toMatchObject({
      id: recording.id,
      status: 'captured',
      expected_seconds: 600,
      covered_seconds: 595,
      reconnects: 2,
      gaps: [
        {
          start: at(200).toISOString(),
          end: at(205).toISOString(),
          cause: 'recorder_down',
          reason: 'Recorder was down',
          content_lost_seconds: 5,
        },
      ],
    });
    expect(await rowOf(id)).toMatchObject({ provider_instance_id: 'm-2', state: 'terminated' });
    expect(fleet.machines).toHaveLength(2);
    // Captured in full after all: the recorder that died is no longer a cause.
    expect(await alarmsOf(id)).toEqual([
      expect.objectContaining({ kind: 'recorder_died', resolved_at: at(610).toISOString() }),
    ]);
  });

  it('keeps each finished run on the recording row, where a restarted server finds it', async () => {
    const id = await launch('relaunch-restart');
    t.clock.set(at(100));
    fleet.kill('m-1');
    await t.app.ctx.instances.reconcile();
    const { runs } = await t.app.ctx.db.kysely
      .selectFrom('recordings')
      .select('runs')
      .where('instance_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(runs)).toEqual([
      expect.objectContaining({ from: at(0).toISOString(), until: at(100).toISOString(), coveredSeconds: 100 }),
    ]);
  });

  it(`relaunches at most ${MAX_FLEET_RELAUNCHES} times; then the recording ends partial`, async () => {
    const id = await launch('relaunch-max');
    for (let n = 1; n <= MAX_FLEET_RELAUNCHES + 1; n++) {
      t.clock.set(at(n * 20));
      fleet.kill(await current(id));
      await t.app.ctx.instances.reconcile();
    }
    expect(fleet.machines).toHaveLength(MAX_FLEET_RELAUNCHES + 1);
    expect(await rowOf(id)).toMatchObject({
      state: 'terminated',
      provider_instance_id: `m-${MAX_FLEET_RELAUNCHES + 1}`,
    });
    const [recording] = await recordingsOf(id);
    expect(recording).toMatchObject({ status: 'partial', covered_seconds: 220, reconnects: MAX_FLEET_RELAUNCHES + 1 });
    expect(recording.reason).toContain(`relaunched ${MAX_FLEET_RELAUNCHES} times`);
    expect(recording.gaps).toEqual([
      {
        start: at(220).toISOString(),
        end: at(600).toISOString(),
        cause: 'recorder_down',
        reason: 'Recorder was down',
        content_lost_seconds: 380,
      },
    ]);
  });

  it("does not relaunch after an operator's terminate", async () => {
    const id = await launch('relaunch-operator');
    t.clock.set(at(100));
    await t.app.ctx.instances.terminate([id], 'Stopped by the operator');
    await t.app.ctx.instances.reconcile();
    expect(fleet.machines).toHaveLength(1);
    expect(await rowOf(id)).toMatchObject({ state: 'terminated', provider_instance_id: 'm-1' });
    expect((await recordingsOf(id))[0]).toMatchObject({ status: 'partial', covered_seconds: 100 });
    expect(await alarmsOf(id)).toEqual([]);
  });

  it('does not relaunch a recorder that ends in the last minute of its window, nor after it', async () => {
    const id = await launch('relaunch-late');
    t.clock.set(at(560));
    fleet.kill('m-1');
    await t.app.ctx.instances.reconcile();
    expect(fleet.machines).toHaveLength(1);
    expect(await rowOf(id)).toMatchObject({ state: 'terminated' });
    expect((await recordingsOf(id))[0]).toMatchObject({ status: 'partial', covered_seconds: 560 });
  });
});
