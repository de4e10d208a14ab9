import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContentSummary, OngoingCondition } from '../../../recorder/protocol';
import { addMosques } from '../helpers/mosques';
import { recordingReading, seedRecording } from '../helpers/recordings';
import { createTestApp, type TestApp } from '../helpers/test-app';

/** A content summary as a recorder reports it, with these conditions going on. */
const content = (conditions: OngoingCondition[], fields: Partial<ContentSummary> = {}): ContentSummary => ({
  measuredSeconds: 300,
  integratedLufs: -23,
  peakDbfs: -3,
  longestSilenceSeconds: 0,
  silentSeconds: 0,
  frozenSeconds: 0,
  blackSeconds: 0,
  conditions,
  ...fields,
});
const silent = (seconds: number): OngoingCondition => ({
  kind: 'audio_silent',
  since: '2026-11-27T11:42:10.000Z',
  seconds,
});

/**
 * Content alarms from the readings the recordings module applies, as the recorders report them: the
 * real recordings and alarms modules with the default threshold (120 s).
 */
describe('content alarms follow the conditions the recorder reports', () => {
  let t: TestApp;
  const alarmsOf = async (mosque: string) =>
    (await t.app.ctx.alarms.list('all', 500)).filter(
      (alarm) => alarm.mosque_id === mosque && alarm.kind !== 'unschedulable',
    );
  const apply = (instance: string, conditions: OngoingCondition[], fields: Partial<ContentSummary> = {}) =>
    t.app.ctx.recordings.applyReading(instance, recordingReading({ content: content(conditions, fields) }));

  beforeAll(async () => {
    t = await createTestApp();
    const token = await t.login();
    await addMosques(t, token, 'silence001', 'silence002', 'warning001', 'nosound001');
  });
  afterAll(async () => t?.close());

  it('raises audio_silent once at 120 s, resolves it when sound comes back, and a second silence raises a new one', async () => {
    await seedRecording(t, 'cap-silence01', 'silence001');
    await apply('cap-silence01', [silent(119.9)]);
    expect(await alarmsOf('silence001')).toEqual([]);
    for (const seconds of [120, 121, 125])
      await apply('cap-silence01', [silent(seconds)], { longestSilenceSeconds: seconds });
    const [raised] = await alarmsOf('silence001');
    expect(await alarmsOf('silence001')).toHaveLength(1);
    expect(raised).toMatchObject({
      kind: 'audio_silent',
      severity: 'warning',
      instance_id: 'cap-silence01',
      message: 'Mosque silence001: audio silent for 2 minutes (since 11:42:10 UTC)',
      resolved_at: null,
    });
    await apply('cap-silence01', [], { longestSilenceSeconds: 126 });
    expect((await alarmsOf('silence001'))[0]?.resolved_at).not.toBeNull();
    await apply('cap-silence01', [silent(130)], { longestSilenceSeconds: 130 });
    const alarms = await alarmsOf('silence001');
    // One alarm resolved, one open (raised at the same instant of the test clock: listed in either order).
    expect(alarms.map((alarm) => (alarm.resolved_at === null ? 'open' : 'resolved')).sort()).toEqual([
      'open',
      'resolved',
    ]);
  });

  it('the end of the recording resolves what is still going on', async () => {
    await seedRecording(t, 'cap-silence02', 'silence002');
    await apply('cap-silence02', [silent(200)]);
    await t.app.ctx.recordings.applyReading(
      'cap-silence02',
      recordingReading({ status: 'partial', reason: 'Recorded 300 s of 600 s', content: content([silent(200)]) }),
    );
    expect((await alarmsOf('silence002')).map((alarm) => alarm.kind).sort()).toEqual([
      'audio_silent',
      'capture_partial',
    ]);
    expect((await alarmsOf('silence002')).find((alarm) => alarm.kind === 'audio_silent')?.resolved_at).not.toBeNull();
  });

  it('a captured recording silent most of its window stays captured, with a content warning in its reason', async () => {
    await seedRecording(t, 'cap-warning1', 'warning001');
    await t.app.ctx.recordings.applyReading(
      'cap-warning1',
      recordingReading({
        status: 'captured',
        coveredSeconds: 600,
        content: content([], { measuredSeconds: 600, silentSeconds: 420, longestSilenceSeconds: 400 }),
      }),
    );
    const row = await t.app.ctx.db.kysely
      .selectFrom('recordings')
      .select(['status', 'reason'])
      .where('instance_id', '=', 'cap-warning1')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'captured', reason: 'Content warning: silent for 7 of 10 minutes' });
  });

  it('a stream with no sound track is told after 30 s, sooner than the threshold', async () => {
    await seedRecording(t, 'cap-nosound1', 'nosound001');
    const missing = (seconds: number): OngoingCondition => ({
      kind: 'audio_missing',
      since: '2026-11-27T11:40:00.000Z',
      seconds,
    });
    await apply('cap-nosound1', [missing(29)], { integratedLufs: null });
    expect(await alarmsOf('nosound001')).toEqual([]);
    await apply('cap-nosound1', [missing(30)], { integratedLufs: null });
    expect(await alarmsOf('nosound001')).toEqual([
      expect.objectContaining({
        kind: 'audio_missing',
        message: 'Mosque nosound001: the stream has a picture and no sound track (since 11:40:00 UTC)',
      }),
    ]);
  });
});
