import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Alarm } from '../../../contract/alarms';
import type { RecordingGap } from '../../../contract/instances';
import { startWebhookReceiver, type WebhookReceiver } from '../../../testkit/webhook-receiver';
import { addMosques } from '../helpers/mosques';
import { recordingReading, seedRecording } from '../helpers/recordings';
import { notificationSettler } from '../helpers/settle-notifications';
import { createTestApp, type TestApp } from '../helpers/test-app';

/**
 * The life of a stall alarm, end to end: readings as a recorder saves them every 2 s applied by the
 * real recordings module, the real alarms and notification policy (30 s group window) on the test
 * clock, and the webhook counted at a real receiver. Every stall alarm ends resolved, once.
 */
describe('stall alarms end when their cause ends', () => {
  let hook: WebhookReceiver;
  let t: TestApp;

  const about = (alarm: Alarm, mosque: string) => alarm.kind !== 'unschedulable' && alarm.mosque_id === mosque;
  const alarmsAbout = async (mosque: string) =>
    (await t.app.ctx.alarms.list('all', 500)).filter((alarm) => about(alarm, mosque));
  const postsAbout = (mosque: string) =>
    hook.posts().filter((post) => post.alarms.some((alarm) => about(alarm, mosque)));

  const settle = notificationSettler(
    () => t,
    () => hook,
  );

  /** Applies a reading every 2 s for `seconds` from now; `gapsAt(s)` are the recording's gaps s seconds in. */
  async function readings(instanceId: string, seconds: number, gapsAt: (s: number) => RecordingGap[]): Promise<void> {
    const base = t.clock.now().getTime();
    for (let s = 2; s <= seconds; s += 2) {
      t.clock.set(new Date(base + s * 1000));
      const measuredUntil = t.clock.now().toISOString();
      await t.app.ctx.recordings.applyReading(instanceId, recordingReading({ gaps: gapsAt(s), measuredUntil }));
    }
  }

  /** A hole from `from` s into the readings, `length` s long so far, as the recorder lists it. */
  const hole = (base: number, from: number, length: number): RecordingGap => ({
    start: new Date(base + from * 1000).toISOString(),
    end: new Date(base + (from + length) * 1000).toISOString(),
    cause: 'stream_stalled',
    reason: 'Stream stalled (no new segment for 6 s)',
    content_lost_seconds: 0,
  });

  beforeAll(async () => {
    hook = await startWebhookReceiver();
    t = await createTestApp({ env: { ALARM_WEBHOOK_URL: hook.url }, build: { healthCheckIntervalMs: 0 } });
    const token = await t.login();
    await addMosques(t, token, 'stalecdn01', 'shortstal1', 'longstall1', 'endstall01');
    await settle();
  });
  afterAll(async () => {
    await t?.close();
    await hook?.close();
  });

  it('a playlist frozen for 70 s that then catches up: the stall raised at 60 s is resolved when the gap goes, and nothing is sent', async () => {
    await seedRecording(t, 'cap-stalecdn1', 'stalecdn01');
    const base = t.clock.now().getTime();
    // From 20 s the hole grows with the freeze; at 92 s the segments listed late fill it: no gap any more.
    await readings('cap-stalecdn1', 200, (s) => (s > 20 && s < 92 ? [hole(base, 20, s - 20)] : []));
    await settle();
    const alarms = await alarmsAbout('stalecdn01');
    expect(alarms).toEqual([expect.objectContaining({ kind: 'stall', resolved_at: expect.any(String) as string })]);
    // Raised and filled in within one group window: no one is told of a stall that left no hole.
    expect(postsAbout('stalecdn01')).toEqual([]);
  });

  it('a stall shorter than 60 s raises nothing', async () => {
    await seedRecording(t, 'cap-shortst1', 'shortstal1');
    const base = t.clock.now().getTime();
    await readings('cap-shortst1', 120, (s) => (s > 20 ? [hole(base, 20, Math.min(s, 70) - 20)] : []));
    await settle();
    expect(await alarmsAbout('shortstal1')).toEqual([]);
  });

  it('a 100 s stall is told once raised and once resolved, when media flows again', async () => {
    await seedRecording(t, 'cap-longst01', 'longstall1');
    const base = t.clock.now().getTime();
    await readings('cap-longst01', 200, (s) => (s > 20 ? [hole(base, 20, Math.min(s, 120) - 20)] : []));
    await settle();
    const [alarm] = await alarmsAbout('longstall1');
    // Media flowed from 120 s: the first reading after it resolves the alarm (it used to take 90 s more).
    expect(alarm).toMatchObject({ kind: 'stall', resolved_at: new Date(base + 122_000).toISOString() });
    // Once each; posts are made side by side, so they may arrive in either order.
    expect(
      postsAbout('longstall1')
        .map((post) => post.event)
        .sort(),
    ).toEqual(['raised', 'resolved']);
  });

  it("a recording that ends while its stall goes on: the end settles the stall and the recorder's death", async () => {
    await seedRecording(t, 'cap-endstal1', 'endstall01');
    const base = t.clock.now().getTime();
    for (let s = 2; s <= 150; s += 2) {
      t.clock.set(new Date(base + s * 1000));
      const gaps = s > 20 ? [hole(base, 20, s - 20)] : [];
      await t.app.ctx.recordings.applyReading('cap-endstal1', recordingReading({ gaps, relaunches: 1 }));
    }
    await t.app.ctx.recordings.applyReading(
      'cap-endstal1',
      recordingReading({
        status: 'partial',
        coveredSeconds: 470,
        relaunches: 1,
        reason: 'Recorded 470 s of 600 s',
        gaps: [hole(base, 20, 130)],
      }),
    );
    await settle();
    const alarms = await alarmsAbout('endstall01');
    const open = alarms.filter((alarm) => !alarm.resolved_at).map((alarm) => alarm.kind);
    // The outcome's own alarm tells how the Friday ended; nothing else stays open.
    expect(open).toEqual(['capture_partial']);
    const stall = alarms.find((alarm) => alarm.kind === 'stall') as Alarm;
    const resolvedPosts = postsAbout('endstall01').filter(
      (post) => post.event === 'resolved' && post.alarms.some((listed) => listed.id === stall.id),
    );
    expect(resolvedPosts).toHaveLength(1);
  });
});
