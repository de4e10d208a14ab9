import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordingGap } from '../../../contract/instances';
import { recordingReading, seedRecording } from '../helpers/recordings';
import { createTestApp, type TestApp } from '../helpers/test-app';

/**
 * The alarms the recordings reconcile raises from what a recorder reports, on a real database with
 * the real alarms service: a recorder that died, a gap over 60 s (resolved when media comes back),
 * and a partial or failed outcome, each raised once per cause.
 */
describe('alarms from recording readings', () => {
  let t: TestApp;
  const start = '2026-11-23T09:00:00.000Z';
  const at = (s: number) => new Date(Date.parse(start) + s * 1000).toISOString();

  const seed = (id: string) => seedRecording(t, id, 'alarmmosque');
  const reading = recordingReading;
  const gap = (from: number, to: number, cause: RecordingGap['cause'], reason: string): RecordingGap => ({
    start: at(from),
    end: at(to),
    cause,
    reason,
    content_lost_seconds: cause === 'not_live_yet' ? 0 : to - from,
  });
  const alarmsOf = async (instanceId: string) =>
    (await t.app.ctx.alarms.list('all', 100)).filter((a) => a.instance_id === instanceId);

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it("writes a recording's progress at most every 5 s of the server's clock", async () => {
    await seed('cap-progress01');
    const bytesOf = async () => (await t.app.ctx.recordings.forInstance('cap-progress01'))?.bytes;
    t.clock.set(at(300));
    expect(await t.app.ctx.recordings.applyReading('cap-progress01', reading({ bytes: 1000 }))).toBe(true);
    expect(await t.app.ctx.recordings.applyReading('cap-progress01', reading({ bytes: 2000 }))).toBe(false);
    expect(await bytesOf()).toBe(1000);
    // Five seconds later on the clock the next reading is written, however little real time passed.
    t.clock.set(at(305));
    expect(await t.app.ctx.recordings.applyReading('cap-progress01', reading({ bytes: 3000 }))).toBe(true);
    expect(await bytesOf()).toBe(3000);
  });

  it('one stall raises one alarm whatever the number of readings, resolved once when media flows again', async () => {
    await seed('cap-alarmgap01');
    const dropped = (end: number) => gap(30, end, 'stream_dropped', 'Stream dropped (HTTP 404)');
    // A reading every 2 s while the hole grows from 20 s to 70 s: the alarm comes once it passes 60 s.
    for (let s = 50; s <= 100; s += 2) {
      t.clock.set(at(s));
      await t.app.ctx.recordings.applyReading('cap-alarmgap01', reading({ gaps: [dropped(s)] }));
    }
    expect(await alarmsOf('cap-alarmgap01')).toEqual([
      expect.objectContaining({
        kind: 'stall',
        severity: 'warning',
        mosque_id: 'alarmmosque',
        message:
          'Mosque alarmmosque: nothing recorded since 09:00:30 UTC: the stream dropped (Stream dropped (HTTP 404))',
        resolved_at: null,
      }),
    ]);

    // Media flows from 100 s: every later reading still lists the closed 70 s gap. A gap's end is as
    // fresh as the recorder's last report, so one that stopped growing 90 s ago has closed.
    for (let s = 102; s <= 400; s += 2) {
      t.clock.set(at(s));
      await t.app.ctx.recordings.applyReading('cap-alarmgap01', reading({ gaps: [dropped(100)] }));
    }
    expect(await alarmsOf('cap-alarmgap01')).toEqual([
      expect.objectContaining({ kind: 'stall', resolved_at: at(190) }),
    ]);

    // A second stall of the same recording is part of its Friday's story (its outcome), not a second alarm.
    t.clock.set(at(480));
    await t.app.ctx.recordings.applyReading(
      'cap-alarmgap01',
      reading({ gaps: [dropped(100), gap(410, 480, 'stream_stalled', 'Stream stalled (no media for 15 s)')] }),
    );
    expect(await alarmsOf('cap-alarmgap01')).toHaveLength(1);
  });

  it('a hole that closed before the server read it, or a stream not on the air yet, raises nothing', async () => {
    await seed('cap-alarmgap02');
    t.clock.set(at(400));
    await t.app.ctx.recordings.applyReading(
      'cap-alarmgap02',
      reading({ gaps: [gap(0, 120, 'not_live_yet', 'Stream not live yet (HTTP 404)')] }),
    );
    await t.app.ctx.recordings.applyReading(
      'cap-alarmgap02',
      reading({
        gaps: [
          gap(0, 120, 'not_live_yet', 'Stream not live yet (HTTP 404)'),
          gap(150, 290, 'stream_stalled', 'Stream stalled (no media for 60 s)'),
        ],
      }),
    );
    expect(await alarmsOf('cap-alarmgap02')).toEqual([]);
    // Still not on the air minutes into the window: that is the outcome's to tell, not a stall.
    await t.app.ctx.recordings.applyReading(
      'cap-alarmgap02',
      reading({ gaps: [gap(0, 400, 'not_live_yet', 'Stream not live yet (HTTP 404)')] }),
    );
    expect(await alarmsOf('cap-alarmgap02')).toEqual([]);
  });

  it('a short gap raises nothing; a partial outcome raises one alarm with the reason', async () => {
    await seed('cap-alarmpart1');
    await t.app.ctx.recordings.applyReading(
      'cap-alarmpart1',
      reading({
        gaps: [
          {
            start: at(0),
            end: at(30),
            cause: 'not_live_yet',
            reason: 'Stream not live yet (HTTP 404)',
            content_lost_seconds: 0,
          },
        ],
      }),
    );
    expect(await alarmsOf('cap-alarmpart1')).toEqual([]);
    const reason = 'Recorded 570 s of 600 s: Stream not live yet (HTTP 404) for 30 s';
    await t.app.ctx.recordings.applyReading(
      'cap-alarmpart1',
      reading({
        status: 'partial',
        coveredSeconds: 570,
        reason,
        gaps: [
          {
            start: at(0),
            end: at(30),
            cause: 'not_live_yet',
            reason: 'Stream not live yet (HTTP 404)',
            content_lost_seconds: 0,
          },
        ],
      }),
    );
    expect(await alarmsOf('cap-alarmpart1')).toEqual([
      expect.objectContaining({
        kind: 'capture_partial',
        severity: 'warning',
        message: `Mosque alarmmosque: only 570 s of 600 s recorded. Stream not live yet (HTTP 404) for 30 s`,
        resolved_at: null,
      }),
    ]);
    const row = await t.app.ctx.recordings.forInstance('cap-alarmpart1');
    expect(row).toMatchObject({
      status: 'partial',
      covered_seconds: 570,
      expected_seconds: 600,
      gaps: [
        {
          start: at(0),
          end: at(30),
          cause: 'not_live_yet',
          reason: 'Stream not live yet (HTTP 404)',
          content_lost_seconds: 0,
        },
      ],
    });
  });

  it('a recorder that died raises recorder_died, resolved when the capture is still captured in full', async () => {
    await seed('cap-alarmdied1');
    await t.app.ctx.recordings.applyReading('cap-alarmdied1', reading({ relaunches: 1 }));
    expect(await alarmsOf('cap-alarmdied1')).toEqual([
      expect.objectContaining({ kind: 'recorder_died', resolved_at: null }),
    ]);
    await t.app.ctx.recordings.applyReading(
      'cap-alarmdied1',
      reading({ status: 'captured', coveredSeconds: 600, relaunches: 1, bytes: 5000 }),
    );
    const [died] = await alarmsOf('cap-alarmdied1');
    expect(died.resolved_at).not.toBeNull();
    expect(await t.app.ctx.recordings.forInstance('cap-alarmdied1')).toMatchObject({
      status: 'captured',
      download_url: null,
    });
  });

  it('a recorder that could not keep up raises one recorder_overloaded alarm naming its machine, settled by the end', async () => {
    await seed('cap-alarmover1');
    const overloaded = (from: number, to: number) =>
      gap(
        from,
        to,
        'recorder_overloaded',
        'Recorder overloaded on ip-10-0-3-17 (ffmpeg at 0.41x real time, 60 s behind the stream)',
      );
    // Segments let go are lost at once: the first episode, still going, raises the alarm.
    t.clock.set(at(130));
    await t.app.ctx.recordings.applyReading('cap-alarmover1', reading({ gaps: [overloaded(120, 130)] }));
    expect((await alarmsOf('cap-alarmover1')).map((a) => a.kind)).toEqual(['recorder_overloaded']);
    for (const s of [200, 230, 260]) {
      t.clock.set(at(s));
      await t.app.ctx.recordings.applyReading(
        'cap-alarmover1',
        reading({ gaps: [overloaded(120, 150), overloaded(200, s)] }),
      );
    }
    // Ours, not the stream's: no stall (each hole is shorter than 60 s), one alarm however many readings.
    expect(await alarmsOf('cap-alarmover1')).toEqual([
      expect.objectContaining({
        kind: 'recorder_overloaded',
        severity: 'warning',
        message:
          'Mosque alarmmosque: Recorder overloaded on ip-10-0-3-17 (ffmpeg at 0.41x real time, 60 s behind the stream): what the stream sent meanwhile was not recorded',
        resolved_at: null,
      }),
    ]);
    t.clock.set(at(620));
    await t.app.ctx.recordings.applyReading(
      'cap-alarmover1',
      reading({ status: 'partial', coveredSeconds: 510, reason: 'Recorder overloaded', gaps: [overloaded(120, 150)] }),
    );
    const alarms = await alarmsOf('cap-alarmover1');
    expect(alarms.find((a) => a.kind === 'recorder_overloaded')?.resolved_at).toBe(at(620));
    expect(alarms.filter((a) => a.resolved_at === null).map((a) => a.kind)).toEqual(['capture_partial']);
  });

  it('a copy behind at its live edge raises nothing while it may catch up, past 60 s a stall naming our machine', async () => {
    await seed('cap-alarmbehind');
    // As the recorder reports it: nothing lost while ffmpeg may still catch up.
    const behind = (from: number, to: number) => ({
      ...gap(from, to, 'recorder_overloaded', `Recorder behind: ffmpeg's output is ${to - from} s behind the stream`),
      content_lost_seconds: 0,
    });
    for (const s of [210, 230, 250]) {
      t.clock.set(at(s));
      await t.app.ctx.recordings.applyReading('cap-alarmbehind', reading({ gaps: [behind(200, s)] }));
    }
    // Nothing lost yet: no recorder_overloaded alarm for a hole still growing at the live edge.
    expect(await alarmsOf('cap-alarmbehind')).toEqual([]);
    t.clock.set(at(270));
    await t.app.ctx.recordings.applyReading('cap-alarmbehind', reading({ gaps: [behind(200, 270)] }));
    expect(await alarmsOf('cap-alarmbehind')).toEqual([
      expect.objectContaining({
        kind: 'stall',
        message:
          "Mosque alarmmosque: nothing recorded since 09:03:20 UTC: the recorder could not keep up with the stream on its machine (Recorder behind: ffmpeg's output is 70 s behind the stream)",
        resolved_at: null,
      }),
    ]);
    // It caught up: the hole is gone, and so is the alarm; nothing was lost, so no overload alarm either.
    t.clock.set(at(280));
    await t.app.ctx.recordings.applyReading('cap-alarmbehind', reading({ gaps: [] }));
    expect(await alarmsOf('cap-alarmbehind')).toEqual([
      expect.objectContaining({ kind: 'stall', resolved_at: at(280) }),
    ]);
  });

  it('a capture an operator stopped raises no outcome alarm and no stall for the rest of its window', async () => {
    await seed('cap-alarmterm1');
    t.clock.set(at(600));
    const stopped = gap(100, 600, 'recorder_down', 'Stopped by admin');
    // Read while the recorder is still finishing after the stop request, then once it ended.
    await t.app.ctx.recordings.applyReading('cap-alarmterm1', reading({ stoppedByOperator: true, gaps: [stopped] }));
    await t.app.ctx.recordings.applyReading(
      'cap-alarmterm1',
      reading({
        status: 'partial',
        coveredSeconds: 100,
        reason: 'Stopped by admin',
        stoppedByOperator: true,
        gaps: [stopped],
      }),
    );
    expect(await alarmsOf('cap-alarmterm1')).toEqual([]);
  });

  it('a failed capture raises a critical alarm', async () => {
    await seed('cap-alarmfail1');
    await t.app.ctx.recordings.applyReading(
      'cap-alarmfail1',
      reading({
        status: 'failed',
        bytes: 0,
        coveredSeconds: 0,
        reason: 'The stream never came: Server returned 404 Not Found',
      }),
    );
    expect(await alarmsOf('cap-alarmfail1')).toEqual([
      expect.objectContaining({
        kind: 'capture_failed',
        severity: 'critical',
        message: 'Mosque alarmmosque: nothing was recorded. The stream never came: Server returned 404 Not Found',
      }),
    ]);
  });

  it('names the mosque in the alarm when it is known', async () => {
    const admin = await t.login();
    const created = await t.request({
      method: 'POST',
      url: '/api/config/mosques',
      token: admin,
      payload: { mosque_id: 'namedmosq1', name: 'Al Noor Mosque', languages: ['ar'] },
    });
    expect(created.statusCode).toBe(201);
    await seedRecording(t, 'cap-alarmname1', 'namedmosq1');
    await t.app.ctx.recordings.applyReading(
      'cap-alarmname1',
      reading({ status: 'failed', bytes: 0, coveredSeconds: 0, reason: 'The stream never came: HTTP 404' }),
    );
    expect(await alarmsOf('cap-alarmname1')).toEqual([
      expect.objectContaining({
        kind: 'capture_failed',
        mosque_name: 'Al Noor Mosque',
        message: 'Al Noor Mosque: nothing was recorded. The stream never came: HTTP 404',
      }),
    ]);
  });
});
