import { afterAll, describe, expect, it } from 'vitest';
import type { Gap } from '../../../recorder/recorder-state';
import { startFidelityOrigin, type FidelityOrigin, type OriginFault } from '../../../testkit/fidelity-origin';
import { compareWithTruth, readFrameIndices, type FidelityReport } from '../../../testkit/frame-decoder';
import { FRAME_CODE, SEGMENT_SECONDS } from '../../../testkit/numbered-stream';
import { recorderProcess, type RecorderProcess } from '../../../testkit/recorder-process';
import { scaled } from '../../../testkit/time-scale';
import { pause } from '../../../testkit/wait';

// PostgreSQL pass: skipped: recorder processes against live loopback streams, no database

/*
 * The HLS recorder against the stream's own truth: every frame of the fidelity lab's programme carries
 * its index, so the recording read back says what was kept, lost and repeated, and the origin says
 * what each fault made unavailable. Each case is a real recorder process on a real live origin, in
 * real time; they run side by side (the recorders copy the source, so they cost little CPU).
 */

// The fixed waits here are real time: a recorder's time down is seconds of a live stream it must make up.
/** The stream has been on the air this long when the window opens. */
const ON_AIR_SEGMENTS = 10;
const ON_AIR_SECONDS = ON_AIR_SEGMENTS * SEGMENT_SECONDS;

interface Case {
  origin: FidelityOrigin;
  recorder: RecorderProcess;
  report: FidelityReport;
  gaps: Gap[];
  status: string | undefined;
  /** Seconds into the window. */
  at(iso: string | number): number;
}

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

/** Records `seconds` of a live origin with `faults` (origin time), doing `during` meanwhile, and reads the recording back. */
async function record(
  seconds: number,
  origin: { faults: OriginFault[]; dvrSegments?: number; prePublishSegments?: number; programDateTime?: boolean },
  options: { sourceAsIs?: boolean; during?: (recorder: RecorderProcess) => Promise<void> } = {},
): Promise<Case> {
  const live = await startFidelityOrigin({
    minutes: Math.ceil(seconds / 60) + 2,
    prePublishSegments: ON_AIR_SEGMENTS,
    ...origin,
  });
  const sourceAsIs = options.sourceAsIs ?? true;
  const recorder = recorderProcess({
    url: live.url,
    seconds,
    width: sourceAsIs ? FRAME_CODE.width : 640,
    height: sourceAsIs ? FRAME_CODE.height : 360,
    sourceAsIs,
  });
  cleanups.push(async () => {
    await recorder.kill();
    await live.close();
    recorder.remove();
  });
  recorder.start();
  await options.during?.(recorder);
  const state = await recorder.finished((seconds + 90) * 1000);
  const from = Date.parse(recorder.config.windowStart);
  const to = Date.parse(recorder.config.windowEnd);
  const indices = state.bytes > 0 ? await readFrameIndices(recorder.config.outputPath) : [];
  const report = compareWithTruth(indices, live.window(from, to));
  const at = (instant: string | number) =>
    ((typeof instant === 'string' ? Date.parse(instant) : instant) - from) / 1000;
  return { origin: live, recorder, report, gaps: state.coverage?.gaps ?? [], status: state.outcome?.status, at };
}

function describeCase(c: Case): string {
  const { report } = c;
  return JSON.stringify({
    lost: report.lostSeconds,
    lostByUs: report.lostByUsSeconds,
    repeated: report.repeatedSeconds,
    // Where the frames we lost were on the air (s into the window), and which: a lost frame is found where it went.
    losses: report.losses.map((l) => ({
      at: [c.at(l.broadcastFrom), c.at(l.broadcastTo)],
      frames: [l.first, l.last],
      unavailable: l.unavailableFrames,
    })),
    holes: report.holes.map((h) => [c.at(h.from), c.at(h.to)]),
    gaps: c.gaps.map((g) => [c.at(g.start), c.at(g.end), g.cause, g.content_lost_seconds]),
    log: c.recorder
      .log()
      .split('\n')
      .filter((line) => line.includes('recorder:'))
      .slice(-12),
  });
}

/**
 * Every reported gap matches a true hole within 2 s at both ends, and every hole of 2 s or more is reported.
 * A recorder that started late on a busy machine says so at the window's start (recorder_late): its own
 * hole, not the stream's, and no hole of the stream's.
 */
function expectGapsWhereHolesAre(c: Case, cause: Gap['cause']): void {
  const holes = c.report.holes.filter((h) => h.to - h.from >= 2000);
  const streamGaps = c.gaps.filter((gap) => !(gap.cause === 'recorder_late' && c.at(gap.start) <= 0.5));
  expect(streamGaps.length, describeCase(c)).toBe(holes.length);
  streamGaps.forEach((gap, i) => {
    expect(gap.cause, describeCase(c)).toBe(cause);
    expect(Math.abs(c.at(gap.start) - c.at(holes[i].from)), describeCase(c)).toBeLessThanOrEqual(2);
    expect(Math.abs(c.at(gap.end) - c.at(holes[i].to)), describeCase(c)).toBeLessThanOrEqual(2);
  });
}

describe('the HLS recorder keeps what the stream offered', () => {
  it.concurrent(
    'a clean stream is kept from the first frame of the window to its last, and is captured',
    { timeout: scaled(120_000) },
    async () => {
      // A segment is placed when the reader first sees it listed, up to a reload after it was published:
      // without a margin past the end, the window's last half second was lost and a short window read partial.
      const c = await record(20, { dvrSegments: 6, faults: [] });
      expect(c.report.lostSeconds, describeCase(c)).toBe(0);
      expect(c.report.repeatedSeconds, describeCase(c)).toBe(0);
      expect(c.gaps, describeCase(c)).toEqual([]);
      expect(c.status, describeCase(c)).toBe('captured');
    },
  );

  it.concurrent(
    'a 70 s stall (the origin holds every connection) inside a DVR window of 120 s loses nothing',
    { timeout: scaled(300_000) },
    async () => {
      const c = await record(110, {
        dvrSegments: 60,
        faults: [{ kind: 'held_open', at: ON_AIR_SECONDS + 15, seconds: 70 }],
      });
      expect(c.report.lostByUsSeconds, describeCase(c)).toBeLessThanOrEqual(2);
      expect(c.report.repeatedSeconds, describeCase(c)).toBe(0);
      expect(c.report.reorderedSeconds, describeCase(c)).toBe(0);
      expectGapsWhereHolesAre(c, 'stream_stalled');
    },
  );

  it.concurrent(
    'a recorder killed for 40 s and started again on its folder loses nothing the DVR window still lists',
    { timeout: scaled(300_000) },
    async () => {
      // A long window: a recorder started under load may take many seconds to compile its sources.
      const c = await record(
        130,
        { dvrSegments: 60, faults: [] },
        {
          during: async (recorder) => {
            await pause(25_000);
            await recorder.kill();
            await pause(40_000);
            recorder.start();
          },
        },
      );
      expect(c.report.lostByUsSeconds, describeCase(c)).toBeLessThanOrEqual(2);
      expect(c.report.repeatedSeconds, describeCase(c)).toBe(0);
      expect(c.report.reorderedSeconds, describeCase(c)).toBe(0);
      expectGapsWhereHolesAre(c, 'recorder_down');
    },
  );

  it.concurrent(
    'an encoder restarted in place (media sequence back to 0) loses at most 3 s and is seen as a reset',
    { timeout: scaled(300_000) },
    async () => {
      const c = await record(60, { faults: [{ kind: 'encoder_restart', at: ON_AIR_SECONDS + 20 }] });
      expect(c.report.lostByUsSeconds, describeCase(c)).toBeLessThanOrEqual(3);
      expect(c.report.repeatedSeconds, describeCase(c)).toBe(0);
      expect(c.recorder.log()).toMatch(/media sequence went from \d+ back to 0: the encoder restarted/);
      expectGapsWhereHolesAre(c, 'sequence_reset');
    },
  );

  it.concurrent.for([30, 70])(
    'a DVR playlist that stops updating for %i s while segments are made, then catches up, is captured whole without a gap',
    { timeout: scaled(300_000) },
    async (frozen) => {
      const c = await record(frozen + 50, {
        dvrSegments: 60,
        faults: [{ kind: 'stale_playlist', at: ON_AIR_SECONDS + 20, seconds: frozen }],
      });
      expect(c.report.lostSeconds, describeCase(c)).toBe(0);
      expect(c.report.repeatedSeconds, describeCase(c)).toBe(0);
      // Placed on the stream's own time, the segments the playlist listed late fill the freeze.
      expect(c.gaps, describeCase(c)).toEqual([]);
      expect(c.status, describeCase(c)).toBe('captured');
    },
  );

  it.concurrent.for([
    [4, false],
    [20, false],
    [20, true],
  ] as const)(
    'an encoder restarted after a %i s pause (program date-time: %s) is a sequence_reset gap where the pause was, with its seconds lost',
    { timeout: scaled(300_000) },
    async ([pauseSeconds, programDateTime]) => {
      // On a segment boundary: a restarted encoder starts a segment of its own.
      const c = await record(60, {
        dvrSegments: 6,
        programDateTime,
        faults: [{ kind: 'encoder_restart', at: ON_AIR_SECONDS + 20, pause: pauseSeconds }],
      });
      expect(c.report.lostByUsSeconds, describeCase(c)).toBeLessThanOrEqual(2);
      expect(c.report.repeatedSeconds, describeCase(c)).toBe(0);
      expectGapsWhereHolesAre(c, 'sequence_reset');
      // The encoder's pause is content the window lacks: all of the gap, not "nothing missing" (its
      // seconds are given to a tenth: a gap of 19.45 s loses 19.5).
      const [gap] = c.gaps;
      const gapSeconds = c.at(gap.end) - c.at(gap.start);
      expect(Math.abs(gap.content_lost_seconds - gapSeconds), describeCase(c)).toBeLessThanOrEqual(0.05 + 1e-9);
      // The stream's own clock says how long the pause was: the gap has its length, not the readings' guess.
      const [hole] = c.report.holes;
      if (programDateTime)
        expect(Math.abs(gap.content_lost_seconds - (hole.to - hole.from) / 1000), describeCase(c)).toBeLessThan(0.5);
      expect(c.status, describeCase(c)).toBe('partial');
    },
  );

  it.concurrent(
    'a stream that goes live inside the window is recorded from its first segment, transcoded, and the wait is not_live_yet',
    { timeout: scaled(300_000) },
    async () => {
      const c = await record(
        60,
        { prePublishSegments: 0, faults: [{ kind: 'late_start', at: 20 }] },
        { sourceAsIs: false },
      );
      expect(c.report.lostByUsSeconds, describeCase(c)).toBeLessThanOrEqual(2);
      expect(c.report.repeatedSeconds, describeCase(c)).toBe(0);
      expect(c.report.unreadable, describeCase(c)).toBe(0);
      expectGapsWhereHolesAre(c, 'not_live_yet');
      expect(c.gaps[0].content_lost_seconds).toBe(0);
    },
  );

  it.concurrent(
    'a 60 s stall on a short sliding list loses what left the list, and says so where it was',
    { timeout: scaled(300_000) },
    async () => {
      const c = await record(100, {
        dvrSegments: 6,
        faults: [{ kind: 'held_open', at: ON_AIR_SECONDS + 15, seconds: 60 }],
      });
      expect(c.report.lostByUsSeconds, describeCase(c)).toBeLessThanOrEqual(2);
      expect(c.report.repeatedSeconds, describeCase(c)).toBe(0);
      expectGapsWhereHolesAre(c, 'stream_stalled');
      expect(Math.abs(c.gaps[0].content_lost_seconds - c.report.lostSeconds), describeCase(c)).toBeLessThanOrEqual(
        SEGMENT_SECONDS,
      );
    },
  );

  it.concurrent(
    'a playlist answering 404 for 30 s on a short sliding list loses only what left the list meanwhile',
    { timeout: scaled(300_000) },
    async () => {
      const c = await record(80, {
        dvrSegments: 6,
        faults: [{ kind: 'playlist_404', at: ON_AIR_SECONDS + 20, seconds: 30 }],
      });
      expect(c.report.lostByUsSeconds, describeCase(c)).toBeLessThanOrEqual(2);
      expect(c.report.repeatedSeconds, describeCase(c)).toBe(0);
      expectGapsWhereHolesAre(c, 'stream_dropped');
      // Without PROGRAM-DATE-TIME too, the hole is where it was on the air, to half a second: the reading after
      // the 404 placed what followed up to a segment and a reload late until later readings bounded it.
      const [hole] = c.report.holes.filter((h) => h.to - h.from >= 2000);
      const [gap] = c.gaps.filter((g) => g.cause === 'stream_dropped');
      expect(Math.abs(c.at(gap.start) - c.at(hole.from)), describeCase(c)).toBeLessThanOrEqual(0.5);
      expect(Math.abs(c.at(gap.end) - c.at(hole.to)), describeCase(c)).toBeLessThanOrEqual(0.5);
      // What the stream offered and the recording lacks is said, within a segment.
      expect(Math.abs(c.gaps[0].content_lost_seconds - c.report.lostSeconds), describeCase(c)).toBeLessThanOrEqual(
        SEGMENT_SECONDS,
      );
    },
  );
});
