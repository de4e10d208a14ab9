import { describe, expect, it } from 'vitest';
import { mostTellingLine } from '../../../recorder/recorder-attempt';
import {
  computeCoverage,
  describeRunEnd,
  outcomeFromCoverage,
  placeRunMedia,
  type RunEnd,
  type RunMedia,
} from '../../../recorder/recorder-coverage';
import type { RunRecord } from '../../../recorder/recorder-state';
import { retryDelayMs, RetryPlan } from '../../../recorder/recorder-window';
import { DEFAULT_RECORDER_SETTINGS } from '../../../recorder/recorder-state';

const T0 = Date.parse('2026-11-27T11:40:00Z');
const at = (s: number) => new Date(T0 + s * 1000).toISOString();
const iso = (ms: number) => new Date(ms).toISOString();

function run(index: number, startedAt: number, lastMediaAt: number | null, end: RunEnd | null): RunRecord {
  return {
    index,
    startedAt: at(startedAt),
    firstMediaAt: lastMediaAt === null ? null : at(startedAt + 1),
    lastMediaAt: lastMediaAt === null ? null : at(lastMediaAt),
    endedAt: at(lastMediaAt ?? startedAt),
    endReason: end?.reason ?? null,
    endCause: end?.cause ?? null,
    error: null,
    mediaSeconds: 0,
    bytes: 0,
  };
}
const notLive = (detail: string): RunEnd => ({ cause: 'not_live_yet', reason: `Stream not live yet (${detail})` });
const dropped = (detail: string): RunEnd => ({ cause: 'stream_dropped', reason: `Stream dropped (${detail})` });

describe('coverage of a recording window, from the media', () => {
  it('places each run where its last media arrived and lists the holes with their reasons', () => {
    const runs: RunMedia[] = [
      { run: run(1, 0, null, notLive('HTTP 404')), seconds: 0 },
      { run: run(2, 5, null, notLive('HTTP 404')), seconds: 0 },
      { run: run(3, 30, 100, dropped('HTTP 404')), seconds: 70 },
      { run: run(4, 190, 600, null), seconds: 410 },
    ];
    const coverage = computeCoverage(T0, T0 + 600_000, runs, iso);
    expect(coverage).toEqual({
      expectedSeconds: 600,
      coveredSeconds: 480,
      gaps: [
        {
          start: at(0),
          end: at(30),
          cause: 'not_live_yet',
          reason: 'Stream not live yet (HTTP 404)',
          content_lost_seconds: 0,
        },
        {
          start: at(100),
          end: at(190),
          cause: 'stream_dropped',
          reason: 'Stream dropped (HTTP 404)',
          content_lost_seconds: 90,
        },
      ],
      reconnects: 1,
    });
    expect(outcomeFromCoverage(coverage, null, null)).toEqual({
      status: 'partial',
      reason: 'Recorded 480 s of 600 s: Stream not live yet (HTTP 404) for 30 s; Stream dropped (HTTP 404) for 90 s',
    });
  });

  it('is captured from 99% of the window; media before the window or overlapping runs count once', () => {
    const runs: RunMedia[] = [
      { run: run(1, 0, 300, { cause: 'recorder_down', reason: 'Recorder was down' }), seconds: 303 },
      { run: run(2, 302, 1000, null), seconds: 702 },
    ];
    const coverage = computeCoverage(T0, T0 + 1_000_000, runs, iso);
    expect(coverage).toMatchObject({ coveredSeconds: 1000, gaps: [], reconnects: 1 });
    expect(outcomeFromCoverage(coverage, null, null)).toEqual({ status: 'captured', reason: null });
    const short = computeCoverage(T0, T0 + 1_000_000, [{ run: run(1, 0, 989, null), seconds: 989 }], iso);
    expect(outcomeFromCoverage(short, null, null).status).toBe('partial');
    const enough = computeCoverage(T0, T0 + 1_000_000, [{ run: run(1, 0, 990, null), seconds: 990 }], iso);
    expect(outcomeFromCoverage(enough, null, null).status).toBe('captured');
  });

  it("places a network run from ffmpeg's output time: a slow run's shortfall is where it happened, not at the start", () => {
    // Connected at 0, media on the air from 1 s; 300 s of media by 400 s (a run behind its source): the
    // 99 s it lacks are after its media, where the next run's cause names them.
    const slow = { ...run(1, 0, 400, dropped('HTTP 404')), mediaFrom: at(1) };
    const coverage = computeCoverage(
      T0,
      T0 + 600_000,
      [
        { run: slow, seconds: 300 },
        { run: { ...run(2, 400, 600, null), mediaFrom: at(401) }, seconds: 199 },
      ],
      iso,
    );
    expect(coverage.gaps).toEqual([
      {
        start: at(0),
        end: at(1),
        cause: 'recorder_late',
        reason: 'Connecting to the stream took 1 s',
        content_lost_seconds: 1,
      },
      {
        start: at(301),
        end: at(401),
        cause: 'stream_dropped',
        reason: 'Stream dropped (HTTP 404)',
        content_lost_seconds: 100,
      },
    ]);
  });

  it('calls a first connection that got media late not live yet only when the wait was the stream’s, not ours', () => {
    const live = (from: number) => [{ run: { ...run(1, 0, 600, null), mediaFrom: at(from) }, seconds: 600 - from }];
    expect(computeCoverage(T0, T0 + 600_000, live(4.5), iso).gaps).toEqual([
      {
        start: at(0),
        end: at(4.5),
        cause: 'recorder_late',
        reason: 'Connecting to the stream took 4.5 s',
        content_lost_seconds: 4.5,
      },
    ]);
    const partial = (from: number) => computeCoverage(T0, T0 + 600_000, live(from), iso, T0 + 600_000);
    expect(partial(30).gaps).toEqual([
      {
        start: at(0),
        end: at(30),
        cause: 'not_live_yet',
        reason: 'The stream sent its first media 30 s after the connection',
        content_lost_seconds: 0,
      },
    ]);
  });

  it('calls a long wait for the first media ours when the probe had found the stream on the air', () => {
    // Connected at 0; our probe read the stream's media at 1 s; ffmpeg's first media at 6.1 s (a busy machine).
    const slowStart = (onAirAt: string | null) => [
      { run: { ...run(1, 0, 600, null), mediaFrom: at(6.1), onAirAt }, seconds: 593.9 },
    ];
    expect(computeCoverage(T0, T0 + 600_000, slowStart(at(1)), iso).gaps).toEqual([
      {
        start: at(0),
        end: at(6.1),
        cause: 'recorder_late',
        reason: 'Connecting to the stream took 6.1 s',
        content_lost_seconds: 6.1,
      },
    ]);
    // No probe reading: the stream's own wait, as before.
    expect(computeCoverage(T0, T0 + 600_000, slowStart(null), iso).gaps[0]).toMatchObject({ cause: 'not_live_yet' });
  });

  it('names a start hole that ends before the first connection our late start, whatever the burst placed', () => {
    // Connected at 3 s; the radio server's burst on connecting put media on the air from 2 s.
    const burst = [{ run: { ...run(1, 3, 600, null), mediaFrom: at(2) }, seconds: 598 }];
    expect(computeCoverage(T0, T0 + 600_000, burst, iso).gaps).toEqual([
      {
        start: at(0),
        end: at(2),
        cause: 'recorder_late',
        reason: 'The recorder started 3 s after the window opened',
        content_lost_seconds: 2,
      },
    ]);
  });

  it("places a hole inside a copying run where ffmpeg's output fell behind the clock, and heals a download's jitter", () => {
    /** A run fed ffmpeg's progress reports: [seconds into the window, output seconds, seconds waited for a CPU so far]. */
    const fed = (reports: [number, number, number?][], copying = true) => {
      const record = run(1, 0, null, null);
      for (const [wall, seconds, waited = 0] of reports) {
        placeRunMedia(record, record.mediaSeconds, seconds, T0 + wall * 1000, copying, waited * 1000);
        record.mediaSeconds = seconds;
        record.lastMediaAt = at(wall);
      }
      // Stopped by the window's end.
      record.endedAt = at(30);
      return computeCoverage(T0, T0 + 30_000, [{ run: record, seconds: record.mediaSeconds }], iso, T0 + 30_000);
    };
    // 10 s of media, then the stream gone for 5 s while ffmpeg reconnected by itself, then 15 s more.
    const broken = fed([
      [1, 1],
      [5, 5],
      [10, 10],
      [16, 11],
      [20, 15],
      [30, 25],
    ]);
    expect(broken.gaps).toEqual([
      {
        start: at(10),
        end: at(15),
        cause: 'stream_dropped',
        reason: 'Stream dropped (ffmpeg reconnected to it within the connection)',
        content_lost_seconds: 5,
      },
    ]);
    expect(broken.coveredSeconds).toBe(25);
    // ffmpeg reports nothing while a read blocks: the report that ends a connection given up 4 s later
    // carries the 0.2 s it wrote before the stream went. No break: the hole starts where that media ends.
    expect(
      fed([
        [1, 1],
        [5, 5],
        [10, 10],
        [14.5, 10.2],
      ]).gaps,
    ).toEqual([expect.objectContaining({ start: at(10.2), end: at(30) })]);
    // A segment downloaded late, then the next one on time: no hole at all.
    expect(
      fed([
        [1, 1],
        [4, 1.5],
        [5, 5],
        [30, 30],
      ]).gaps,
    ).toEqual([]);
    // Reports 5 s late because ffmpeg (or the recorder) waited 5 s for a CPU: our lateness, not a break,
    // whether ffmpeg catches up or ends the window behind (the shortfall then stays after its media).
    const starved: [number, number, number][] = [
      [1, 1, 0.1],
      [10, 10, 0.4],
      [16, 11, 5.4],
    ];
    expect(fed([...starved, [30, 30, 5.5]]).gaps).toEqual([]);
    expect(fed([...starved, [30, 25, 9.5]]).gaps).toEqual([
      {
        start: at(25),
        end: at(30),
        cause: 'recorder_overloaded',
        reason: "Recorder fell behind: ffmpeg's output was 5 s behind the stream when the recording stopped",
        content_lost_seconds: 5,
      },
    ]);
    // A stream that sent nothing for the window's last 10 s: no report after its media, so not ours.
    expect(
      fed([
        [1, 1],
        [10, 10],
        [20, 20],
      ]).gaps,
    ).toEqual([
      {
        start: at(20),
        end: at(30),
        cause: 'stream_stalled',
        reason: 'Stream stalled (no media for 10 s when the recording stopped)',
        content_lost_seconds: 10,
      },
    ]);
    // Long waits spread over the run, each caught up, leave no credit for a later break of the stream.
    expect(
      fed([
        [1, 1, 0],
        [10, 10, 6],
        [20, 20, 12],
        [26, 21, 12.5],
        [30, 25, 12.6],
      ]).gaps,
    ).toEqual([expect.objectContaining({ start: at(20), end: at(25), cause: 'stream_dropped' })]);
    // A transcode falling behind is not a break of the stream: its shortfall stays after its media.
    expect(
      fed(
        [
          [1, 1],
          [16, 11],
          [30, 25],
        ],
        false,
      ).gaps,
    ).toEqual([expect.objectContaining({ start: at(25), end: at(30), cause: 'recorder_overloaded' })]);
  });

  it("names the live edge of a run still going: its reports' lag is no gap, a silence a stall, a copy behind ours", () => {
    /** A copying run still going, fed ffmpeg's reports: [seconds into the window, output seconds, seconds waited for a CPU]. */
    const going = (reports: [number, number, number][]) => {
      const record = { ...run(1, 0, null, null), endedAt: null };
      for (const [wall, seconds, waited] of reports) {
        placeRunMedia(record, record.mediaSeconds, seconds, T0 + wall * 1000, true, waited * 1000);
        record.mediaSeconds = seconds;
        record.lastMediaAt = at(wall);
      }
      return (now: number) =>
        computeCoverage(T0, T0 + 600_000, [{ run: record, seconds: record.mediaSeconds }], iso, T0 + now * 1000).gaps;
    };
    const silentSince20 = going([
      [1, 1, 0],
      [10, 10, 0],
      [20, 20, 0],
    ]);
    // Reports come every half second or so: a moment after the last one is not a gap.
    expect(silentSince20(21.5)).toEqual([]);
    expect(silentSince20(90)).toEqual([
      {
        start: at(20),
        end: at(90),
        cause: 'stream_stalled',
        reason: 'Stream stalled (no media for 70 s so far)',
        content_lost_seconds: 70,
      },
    ]);
    // ffmpeg starved: its reports keep coming, its output further and further behind the clock.
    const behind = going([
      [1, 1, 0],
      [10, 10, 0],
      [40, 14, 26],
      [90, 20, 70],
    ]);
    expect(behind(90.3)).toEqual([
      {
        start: at(20),
        end: at(90.3),
        cause: 'recorder_overloaded',
        reason: "Recorder behind: ffmpeg's output is 70.3 s behind the stream",
        // The connection holds what ffmpeg has not written yet: nothing lost while it may catch up.
        content_lost_seconds: 0,
      },
    ]);
  });

  it('no media is a failure with the last error; a gap while recording stops at now', () => {
    const runs: RunMedia[] = [{ run: run(1, 0, null, notLive('connection refused')), seconds: 0 }];
    const coverage = computeCoverage(T0, T0 + 600_000, runs, iso, T0 + 42_000);
    expect(coverage.gaps).toEqual([
      {
        start: at(0),
        end: at(42),
        cause: 'not_live_yet',
        reason: 'Stream not live yet (connection refused)',
        content_lost_seconds: 0,
      },
    ]);
    expect(outcomeFromCoverage(coverage, 'Connection to tcp://127.0.0.1:9 failed: Connection refused', null)).toEqual({
      status: 'failed',
      reason: 'The stream never came: Connection to tcp://127.0.0.1:9 failed: Connection refused',
    });
  });

  it('gives each gap of a partial its length once, after a reason that does not already give it', () => {
    const gap = (start: number, end: number, reason: string) => ({
      start: at(start),
      end: at(end),
      cause: 'recorder_overloaded' as const,
      reason,
      content_lost_seconds: end - start,
    });
    const coverage = {
      expectedSeconds: 240,
      coveredSeconds: 145.4,
      gaps: [
        gap(0, 3, 'Stream stalled (no new segment for 30 s)'),
        gap(
          145.4,
          240,
          "Recorder fell behind: ffmpeg's output was 94.6 s behind the stream when the recording stopped",
        ),
      ],
      reconnects: 0,
    };
    expect(outcomeFromCoverage(coverage, null, null).reason).toBe(
      "Recorded 145.4 s of 240 s: Stream stalled (no new segment for 30 s) for 3 s; Recorder fell behind: ffmpeg's output was 94.6 s behind the stream when the recording stopped",
    );
  });

  it('names why a connection ended', () => {
    const end = { stalled: false, stallSeconds: 60, code: 1, error: null, spawnError: null };
    expect(describeRunEnd({ ...end, error: 'Server returned 404 Not Found' }, false, false)).toEqual(
      notLive('HTTP 404'),
    );
    expect(describeRunEnd({ ...end, error: 'HTTP error 503 Service Unavailable' }, true, true)).toEqual(
      dropped('HTTP 503'),
    );
    expect(
      describeRunEnd({ ...end, error: 'Connection to tcp://h:80 failed: Connection refused' }, false, true),
    ).toEqual({ cause: 'stream_dropped', reason: 'Stream not back yet (connection refused)' });
    expect(describeRunEnd({ ...end, stalled: true }, true, true)).toEqual({
      cause: 'stream_stalled',
      reason: 'Stream stalled (no media for 60 s)',
    });
    // ffmpeg's own 15 s read timeout ended the connection before the watchdog: a stall all the same.
    expect(describeRunEnd({ ...end, error: 'Connection timed out' }, true, true)).toEqual({
      cause: 'stream_stalled',
      reason: 'Stream stalled (connection timed out)',
    });
    expect(describeRunEnd({ ...end, code: 0 }, true, true)).toEqual({
      cause: 'stream_dropped',
      reason: 'Stream ended',
    });
    expect(describeRunEnd({ ...end, code: 0 }, false, false)).toEqual({
      cause: 'not_live_yet',
      reason: 'Stream not live yet (it ended at once)',
    });
    expect(describeRunEnd({ ...end, spawnError: 'Could not start ffmpeg (x): ENOENT' }, false, false)).toEqual({
      cause: 'recorder_down',
      reason: 'Could not start ffmpeg (x): ENOENT',
    });
  });

  it("takes a connection's cause from ffmpeg's telling line, never from encoder statistics", () => {
    const noise = [
      "Opening 'http://h/live12.ts' for reading",
      'frame P:410 Avg QP:12.14 size: 1234',
      'Qavg: 64761.492',
      'kb/s:450.12',
    ];
    expect(mostTellingLine(['[http @ 0x1] HTTP error 404 Not Found', ...noise])).toBe('HTTP error 404 Not Found');
    expect(mostTellingLine(noise)).toBeNull();
    expect(mostTellingLine(['[hls @ 0x1] Media sequence changed unexpectedly: 12 -> 0', ...noise])).toBe(
      'Media sequence changed unexpectedly: 12 -> 0',
    );
  });

  it('waits 5 s after a failed try, doubling up to 30 s', () => {
    expect([1, 2, 3, 4, 5].map((n) => retryDelayMs(n, DEFAULT_RECORDER_SETTINGS) / 1000)).toEqual([5, 10, 20, 30, 30]);
  });

  it('tries a stream that dropped every 2 s for a minute, then backs off', () => {
    const plan = new RetryPlan(DEFAULT_RECORDER_SETTINGS);
    const waits: number[] = [];
    let at = 0;
    const step = (gaveMedia: boolean) => {
      const wait = plan.next(gaveMedia, at);
      waits.push(wait / 1000);
      at += wait;
    };
    step(false); // not live yet: the back-off
    step(false);
    step(true); // live, then dropped: reconnect at once
    for (let i = 0; i < 30; i++) step(false);
    step(false);
    expect(waits.slice(0, 3)).toEqual([5, 10, 1]);
    expect(new Set(waits.slice(3, 33))).toEqual(new Set([2]));
    expect(waits.slice(33)).toEqual([5]);
  });

  it('a relaunched recorder tries quickly when its predecessor saw media a moment ago', () => {
    expect(new RetryPlan(DEFAULT_RECORDER_SETTINGS, 10_000).next(false, 20_000)).toBe(2000);
    expect(new RetryPlan(DEFAULT_RECORDER_SETTINGS, 10_000).next(false, 80_000)).toBe(5000);
  });
});
