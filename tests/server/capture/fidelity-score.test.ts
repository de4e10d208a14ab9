import { describe, expect, it } from 'vitest';
import { lostToStarvation, scoreGaps, type FaultSpan, type ReportedGap } from '../../../bench/fidelity/score';
import type { FaultTruth } from '../../../testkit/fidelity-origin';

const s = (seconds: number) => 1_800_000_000_000 + seconds * 1000;
const gap = (start: number, end: number, cause: string | undefined): ReportedGap => ({
  start: s(start),
  end: s(end),
  cause,
  reason: 'why',
});
const fault = (kind: FaultTruth['fault']['kind'], from: number, to: number): FaultTruth => ({
  fault:
    kind === 'encoder_restart' || kind === 'late_start' ? { kind, at: from } : { kind, at: from, seconds: to - from },
  from: s(from),
  to: s(to),
  unavailable: [],
  unavailableSeconds: 0,
});
/** The season's starvation of a recorder's ffmpeg over from-to (s). */
const starvation = (from: number, to: number): FaultSpan => ({
  fault: { kind: 'recorder_starved' },
  from: s(from),
  to: s(to),
});

describe("the fidelity season's scoring of reported gaps", () => {
  it('places a gap against the true hole it overlaps most, within 2 s at each end', () => {
    const holes = [
      { from: s(17.4), to: s(35.4) },
      { from: s(58), to: s(60) },
    ];
    const score = scoreGaps(
      [
        gap(19, 36, 'stream_dropped'),
        gap(20.1, 37.7, 'stream_dropped'),
        gap(0, 5, 'not_live_yet'),
        gap(0, 1, 'recorder_late'),
        gap(40, 40.82, 'recorder_late'),
      ],
      holes,
      [],
    );
    // 19-36 is within 2 s of 17.4-35.4; 20.1 starts 2.7 s late; 0-5 and 0-1 overlap no hole at all; a gap
    // shorter than a second may be a hole the read-back cannot see (a connection's start): not judged.
    expect(score.misplaced).toEqual([
      gap(20.1, 37.7, 'stream_dropped'),
      gap(0, 5, 'not_live_yet'),
      gap(0, 1, 'recorder_late'),
    ]);
    expect(score.unreported).toEqual([]);
  });

  it('counts a gap over a fault that names another cause, or none, as a wrong cause', () => {
    const faults = [fault('held_open', 30, 100), fault('encoder_restart', 150, 150), fault('slow_origin', 0, 60)];
    const gaps = [
      gap(31, 100, 'stream_stalled'),
      gap(112, 120, 'stream_dropped'),
      gap(156, 200, undefined),
      gap(10, 20, 'recorder_down'),
      gap(166, 170, 'recorder_down'),
    ];
    // A reader behind the live edge sees a fault late: 112 and 156 start within 15 s of the fault's end,
    // 166 does not. The gap at 10-20 is under a slow origin, which makes no gap of its own.
    expect(scoreGaps(gaps, [], faults).wrongCauses).toEqual([
      gap(112, 120, 'stream_dropped'),
      gap(156, 200, undefined),
    ]);
  });

  it('judges a gap by its own hole: a late start that ended just before a drop is not the drop', () => {
    // A recorder that took 7 s to start, then the playlist answered 404 from 7.85 s for 16 s.
    const holes = [
      { from: s(0), to: s(7.09) },
      { from: s(7.77), to: s(23.83) },
    ];
    const gaps = [gap(-0.08, 7.15, 'recorder_late'), gap(7.85, 24.01, 'stream_dropped')];
    expect(scoreGaps(gaps, holes, [fault('playlist_404', 7.85, 21.88)]).wrongCauses).toEqual([]);
    // The same late gap reporting the drop's hole is a wrong cause.
    expect(
      scoreGaps([gap(7.85, 24.01, 'recorder_late')], holes, [fault('playlist_404', 7.85, 21.88)]).wrongCauses,
    ).toEqual([gap(7.85, 24.01, 'recorder_late')]);
  });

  it('counts "not live yet" as a wrong cause where the stream was on the air, away from a late start', () => {
    const gaps = [gap(-0.1, 3.4, 'not_live_yet'), gap(40, 55, 'not_live_yet'), gap(0, 8.7, 'not_live_yet')];
    // A radio on the air before its window: its start and a drop are not a stream yet to go live.
    expect(scoreGaps(gaps.slice(0, 2), [], [fault('playlist_404', 40, 55)]).wrongCauses).toEqual(gaps.slice(0, 2));
    expect(scoreGaps([gaps[2]], [], [fault('late_start', -20, 8.2)]).wrongCauses).toEqual([]);
  });

  it('counts every gap that blames the stream on a starved recording as a wrong cause, wherever it lies', () => {
    const gaps = [
      gap(-0.2, 3, 'recorder_late'),
      gap(25, 31, 'recorder_overloaded'),
      gap(36, 40, 'recorder_overloaded'),
      gap(41, 44, 'stream_dropped'),
      gap(55, 58, 'stream_stalled'),
    ];
    // Its stream never failed: a drop or a stall is ours, even 15 s past the starvation, where no fault's span reaches.
    expect(scoreGaps(gaps, [], [starvation(12, 42)]).wrongCauses).toEqual([
      gap(41, 44, 'stream_dropped'),
      gap(55, 58, 'stream_stalled'),
    ]);
    // Without a starvation, the same gaps over no fault name no wrong cause.
    expect(scoreGaps(gaps, [], []).wrongCauses).toEqual([]);
  });

  it('puts a loss down to a starvation only inside a recorder_overloaded gap over it', () => {
    const gaps = [
      gap(25, 31, 'recorder_overloaded'),
      gap(50, 52, 'recorder_overloaded'),
      gap(70, 75, 'stream_dropped'),
    ];
    const faults = [starvation(12, 42)];
    const loss = (from: number, to: number) => ({ from: s(from), to: s(to) });
    // Within the 2 s placement slack at each end of a gap over the starvation.
    expect(lostToStarvation(loss(23.5, 32.9), gaps, faults)).toBe(true);
    // Past the slack, outside any gap, in a gap of another cause, or with no starvation at all: lost by us.
    expect(lostToStarvation(loss(22, 31), gaps, faults)).toBe(false);
    expect(lostToStarvation(loss(33, 35), gaps, faults)).toBe(false);
    expect(lostToStarvation(loss(71, 74), gaps, faults)).toBe(false);
    expect(lostToStarvation(loss(26, 30), gaps, [])).toBe(false);
    // A recorder_overloaded gap 8 s past the starvation is still over it (detection slack of 15 s); 60 s past, not.
    expect(lostToStarvation(loss(50, 52), gaps, faults)).toBe(true);
    expect(lostToStarvation(loss(50, 52), gaps, [starvation(-30, -10)])).toBe(false);
  });

  it('lists true holes of 10 s or more that no gap reports', () => {
    const holes = [
      { from: s(0), to: s(9) },
      { from: s(20), to: s(31) },
      { from: s(40), to: s(60) },
    ];
    expect(scoreGaps([gap(45, 50, 'stream_stalled')], holes, []).unreported).toEqual([{ from: s(20), to: s(31) }]);
  });
});
