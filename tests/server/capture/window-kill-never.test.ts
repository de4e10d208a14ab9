import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alive, instancePids, startHlsSource, type HlsSource } from '../../../testkit/capture';
import { atSecond, expectPlayableFile, startWindowHarness, type WindowHarness } from './window-harness';
import { scaled } from '../../../testkit/time-scale';
import { pause, waitFor } from '../../../testkit/wait';

// PostgreSQL pass: skipped: recorder deaths over a real-time window; the rows it writes are the reconcile calls proven on PostgreSQL elsewhere

// The fixed wait here is real time: the kill lands at a moment of a live recording window.

/**
 * A recorder SIGKILLed inside its window is started again by the server and carries on in the same
 * folder; a stream that never comes ends `failed` with its reason. Both run at once.
 */
describe('a capture whose recorder dies, and one whose stream never comes', () => {
  let h: WindowHarness;
  const sources: HlsSource[] = [];
  beforeAll(async () => {
    h = await startWindowHarness();
  });
  afterAll(async () => {
    await h?.close();
    await Promise.all(sources.map((s) => s.close()));
  });

  it.concurrent(
    'a recorder killed mid-window is relaunched within 15 s and records to the end of the window',
    { timeout: scaled(100_000) },
    async () => {
      const source = await startHlsSource();
      sources.push(source);
      const { id, launchedAt } = await h.launch(source.url, 45, 'killedrec1');
      await pause(15_000 - (Date.now() - launchedAt));
      const before = instancePids(h.t.config.dataDir, id);
      expect(alive(before.recorder)).toBe(true);
      process.kill(before.recorder ?? 0, 'SIGKILL');
      const killedAt = (Date.now() - launchedAt) / 1000;

      const relaunched = await waitFor(
        () => {
          const now = instancePids(h.t.config.dataDir, id).recorder;
          return now && now !== before.recorder && alive(now) ? now : undefined;
        },
        'the recorder to be started again',
        15_000,
      );
      expect(relaunched).toBeGreaterThan(0);
      await waitFor(() => !alive(before.ffmpeg), 'the orphaned ffmpeg to be stopped', 10_000);

      const recording = await h.outcome(id, 50_000);
      expect(recording.expected_seconds).toBe(45);
      // The stream was on the air throughout: all that can be missing is while the recorder was down, less
      // what the playlist still listed when it was back (20 s here), so a quick relaunch may lose nothing.
      expect(recording.reconnects).toBeLessThanOrEqual(1);
      expect(recording.gaps.length, JSON.stringify(recording.gaps)).toBeLessThanOrEqual(1);
      const down = recording.gaps.reduce(
        (sum, gap) => sum + atSecond(recording, gap.end) - atSecond(recording, gap.start),
        0,
      );
      for (const gap of recording.gaps) {
        expect(gap.reason).toBe('Recorder was down');
        expect(Math.abs(atSecond(recording, gap.start) - killedAt)).toBeLessThanOrEqual(5);
      }
      expect(down).toBeLessThan(15);
      expect(
        Math.abs((recording.covered_seconds ?? 0) - (45 - down)),
        `covered ${recording.covered_seconds} s, down ${down} s`,
      ).toBeLessThanOrEqual(5);
      expect(['captured', 'partial']).toContain(recording.status);
      await expectPlayableFile(h.fileOf(recording, 'killedrec1'), recording);
      const logs = fs.readFileSync(`${h.t.config.dataDir}/instances/${id}/recorder.log`, 'utf8');
      expect(logs).toMatch(/died without finishing; starting it again \(its window is still open, relaunch 1\)/);
      expect(logs).toMatch(/relaunched \(1\); continuing/);
      const alarms = (await h.t.app.ctx.alarms.list('all', 100)).filter((a) => a.instance_id === id);
      expect(alarms).toContainEqual(
        expect.objectContaining({
          kind: 'recorder_died',
          severity: 'warning',
          mosque_id: 'killedrec1',
          message: 'Mosque killedrec1: the recorder died inside its window and was started again (1 time)',
        }),
      );
    },
  );

  it.concurrent('a stream that never comes fails with the reason', { timeout: scaled(60_000) }, async () => {
    const source = await startHlsSource({ live: false });
    sources.push(source);
    const { id } = await h.launch(source.url, 12, 'neverlive1');
    const recording = await h.outcome(id, 40_000);
    expect(recording).toMatchObject({
      status: 'failed',
      expected_seconds: 12,
      covered_seconds: 0,
      bytes: 0,
      download_url: null,
      reconnects: 0,
    });
    expect(recording.reason).toMatch(/^The stream never came: .*404/);
    expect(recording.gaps).toEqual([expect.objectContaining({ reason: 'Stream not live yet (HTTP 404)' })]);
    expect(atSecond(recording, recording.gaps[0].end) - atSecond(recording, recording.gaps[0].start)).toBeCloseTo(
      12,
      0,
    );
    const details = await h.details(id);
    expect(details.state).toBe('stopped');
    expect(fs.existsSync(h.fileOf(recording, 'neverlive1'))).toBe(false);
    const alarms = (await h.t.app.ctx.alarms.list('open', 100)).filter((a) => a.instance_id === id);
    expect(alarms).toEqual([
      expect.objectContaining({
        kind: 'capture_failed',
        severity: 'critical',
        mosque_id: 'neverlive1',
        resolved_at: null,
      }),
    ]);
    expect(alarms[0].message).toMatch(/^Mosque neverlive1: nothing was recorded\. The stream never came: .*HTTP 404/);
  });
});
