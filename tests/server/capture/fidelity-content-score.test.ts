import { describe, expect, it } from 'vitest';
import { scoreContentAlarms, type ContentAlarm } from '../../../bench/fidelity/content-score';
import { EXPECTED_CAUSE, planStreams } from '../../../bench/fidelity/faults';
import { Random } from '../../../bench/simulate/random';
import { unfreeze } from '../../../testkit/frame-decoder';

const s = (seconds: number) => 1_800_000_000_000 + seconds * 1000;
const alarm = (kind: ContentAlarm['kind'], raised: number, resolved: number | null): ContentAlarm => ({
  kind,
  raisedAt: s(raised),
  resolvedAt: resolved === null ? null : s(resolved),
});
const THRESHOLD = 8;
/** The season's size in CI (.ci/run): one recording per variant. */
const CI_RECORDINGS = 12;
const WINDOW_END = s(60);

describe("the fidelity season's scoring of content alarms", () => {
  it("takes a fault's own alarm, raised and resolved in time, as caught, and times it", () => {
    const score = scoreContentAlarms(
      [alarm('audio_silent', 31, 47)],
      { alarm: 'audio_silent', from: s(20), to: s(44) },
      WINDOW_END,
      THRESHOLD,
    );
    expect(score).toEqual({
      missed: 0,
      late: [],
      falseAlarms: [],
      raisedAfterSeconds: 11,
      resolvedAfterSeconds: 3,
    });
  });

  it('counts an alarm never raised as missed, and one raised or resolved past the slack, or never, as late', () => {
    const fault = { alarm: 'picture_frozen' as const, from: s(20), to: s(44) };
    expect(scoreContentAlarms([], fault, WINDOW_END, THRESHOLD).missed).toBe(1);
    // Raised 8 + 30 s after the freeze began is in time; a moment more is not.
    expect(scoreContentAlarms([alarm('picture_frozen', 58, 60)], fault, WINDOW_END, THRESHOLD).late).toEqual([]);
    expect(scoreContentAlarms([alarm('picture_frozen', 58.5, 60)], fault, WINDOW_END, THRESHOLD).late).toHaveLength(1);
    expect(scoreContentAlarms([alarm('picture_frozen', 30, 74.5)], fault, WINDOW_END, THRESHOLD).late).toHaveLength(1);
    expect(scoreContentAlarms([alarm('picture_frozen', 30, null)], fault, WINDOW_END, THRESHOLD).late).toHaveLength(1);
  });

  it('counts every other content alarm as false: on a clean recording, of another kind, or a second of its kind', () => {
    expect(scoreContentAlarms([alarm('picture_frozen', 30, 35)], undefined, WINDOW_END, THRESHOLD)).toMatchObject({
      missed: 0,
      falseAlarms: [alarm('picture_frozen', 30, 35)],
      raisedAfterSeconds: null,
    });
    const score = scoreContentAlarms(
      [alarm('audio_missing', 40, 61), alarm('picture_black', 20, 30), alarm('audio_missing', 10, 30)],
      // No sound track: from the recording's start, resolved by the window's end.
      { alarm: 'audio_missing', from: s(0), to: null },
      WINDOW_END,
      THRESHOLD,
    );
    expect(score.falseAlarms).toEqual([alarm('picture_black', 20, 30), alarm('audio_missing', 40, 61)]);
    expect(score).toMatchObject({ missed: 0, late: [], raisedAfterSeconds: 10, resolvedAfterSeconds: -30 });
  });
});

describe('the frozen picture of the numbered programme, read back', () => {
  it('stands each showing of the held frame for the frame it replaced, and a second run again from the first', () => {
    const frozen = { first: 100, last: 103 };
    const read = [98, 99, 100, 100, 100, 100, null, 104, 100, 100, 100, 100, 100];
    expect(unfreeze(read, frozen)).toEqual([98, 99, 100, 101, 102, 103, null, 104, 100, 101, 102, 103, 103]);
  });
});

describe("the season's draw of faults", () => {
  it('draws every fault kind at the CI size, the encoder restart after a 4 s and a 20 s pause', () => {
    for (const seed of [1, 2, 3]) {
      const plans = planStreams(new Random(seed), CI_RECORDINGS, 60);
      const kinds = new Set(plans.map((plan) => plan.fault.kind));
      // Every kind with a cause of its own, and the two that make no hole.
      for (const kind of [...Object.keys(EXPECTED_CAUSE), 'slow_origin', 'segment_expiry'])
        expect(kinds).toContain(kind);
      const pauses = plans.flatMap((plan) => (plan.fault.kind === 'encoder_restart' ? [plan.fault.pause ?? 0] : []));
      expect(pauses.sort((a, b) => a - b)).toEqual([4, 20]);
    }
  });

  it('starves a transcode for half the window from a fifth of it on or later, at 4% of a CPU, on a clean stream', () => {
    for (const seed of [1, 2, 3]) {
      const starved = planStreams(new Random(seed), CI_RECORDINGS, 60).flatMap((plan) =>
        plan.source === 'hls' && plan.fault.kind === 'recorder_starved'
          ? [{ fault: plan.fault, origin: plan.origin }]
          : [],
      );
      expect(starved).toHaveLength(1);
      const [{ fault, origin }] = starved;
      // The stream has been on the air 20 s when the window opens.
      expect(fault.at - 20).toBeGreaterThanOrEqual(12);
      expect(fault).toMatchObject({ seconds: 30, cpuPercent: 4 });
      expect(origin.faults).toEqual([]);
    }
  });

  it('puts a frozen playlist on a DVR list of 120 s, which a freeze of the window holds', () => {
    for (const seed of [1, 2, 3]) {
      const stale = planStreams(new Random(seed), CI_RECORDINGS, 60).filter(
        (plan) => plan.fault.kind === 'stale_playlist',
      );
      expect(stale).toHaveLength(1);
      expect(stale[0]).toMatchObject({ source: 'hls', origin: { playlistType: 'sliding', dvrSegments: 60 } });
    }
  });
});

describe("the season's draw of content faults", () => {
  it('draws every content fault once in a season of every variant, on three HLS streams, timed inside the window', () => {
    for (const seed of [1, 2, 3]) {
      const plans = planStreams(new Random(seed), CI_RECORDINGS, 60);
      const content = plans.flatMap((plan) => (plan.source === 'hls' && plan.origin.content ? [plan] : []));
      expect(content.map((plan) => plan.origin.content?.fault).sort()).toEqual(['frozen', 'no_audio', 'silent']);
      for (const plan of content) {
        const { from = 0, to = 0 } = plan.origin.content ?? {};
        const launch = (plan.origin.prePublishSegments ?? 0) * 2;
        // Long enough to be alarmed (8 s) and resolved, over before a late start's 18 s moves it past the window.
        expect(to - from).toBeGreaterThanOrEqual(20);
        expect(to - launch + (plan.fault.kind === 'late_start' ? plan.fault.at : 0)).toBeLessThan(60);
      }
    }
  });
});
