/*
 * What a capture's media covers of its window, measured from the media (the probed seconds of each
 * run's pieces), not from the clock. A run's media is placed so that it ends when its last media
 * arrived: a live reader starts a few seconds behind the live edge, so that is where its content lies.
 * Part of the recorder runtime: Node and its siblings only.
 */
import type { Coverage, Gap, GapCause, RecorderOutcome, RunRecord } from './protocol';

/** The share of the window the media must cover for the capture to count as captured. */
export const CAPTURED_SHARE = 0.99;
/** In a captured recording, shorter holes (the join of two runs, a reconnect) are counted as uncovered but not listed. */
export const MIN_LISTED_GAP_MS = 2000;
/** A first connection later than this after the window opened is named as the reason for the gap. */
const LATE_START_MS = 5000;

export interface RunMedia {
  run: RunRecord;
  /** Seconds of its media: probed from its pieces, or ffmpeg's progress while it records. */
  seconds: number;
}

interface Interval {
  start: number;
  end: number;
  run: RunRecord;
  /** The run's media broke off after it and came back in the same run (ffmpeg reconnected by itself). */
  broke?: boolean;
}

/** A copying run's media later than its anchor by more than this broke off (a copy never falls behind). */
const BREAK_MS = 2000;
/**
 * A break counts once this much media followed it. ffmpeg reports no progress while a read blocks, so
 * the report that ends a blocked read (a connection given up) carries media it wrote before the block:
 * on its own it looked like a break with a fraction of a second after it.
 */
const CONFIRMED_AFTER_SECONDS = 1;
/** A run's last media ends this close to its last report: the difference is ffmpeg's flush at a stop, no hole. */
const FLUSH_MS = 1000;

/**
 * Where a network run's media lies on the wall clock, from one progress report: ffmpeg's output time
 * says how much media it wrote, so its media second s was on the air at (now - output time) + s. The
 * earliest such anchor is the true one: a report only ever comes later than its media (buffers, a
 * slow encoder), never sooner. A connection's latency is then a hole at the start, not a shift of all
 * the media. A copying run whose media comes more than BREAK_MS later than its anchor lost the stream
 * and got it back within the run (ffmpeg's own reconnect): the media from there on gets an anchor of
 * its own, so the hole lies where it happened; a report that comes sooner again (the lateness was a
 * download's jitter) moves that anchor back, never before the one before it, and the hole closes.
 *
 * `waitedMs`: how long ffmpeg and the recorder have waited for a CPU so far (run-queue-wait.ts). A busy
 * machine keeps a copy's reports back by up to that wait while the stream goes on, and ffmpeg may not
 * catch up before the run ends: lateness the wait since the anchor's earliest report explains is ours,
 * not a break of the stream.
 */
export function placeRunMedia(
  run: RunRecord,
  previousSeconds: number,
  seconds: number,
  nowMs: number,
  copying: boolean,
  waitedMs = 0,
): void {
  const onAir = nowMs - seconds * 1000;
  const unwaited = onAir - waitedMs;
  const iso = (ms: number) => new Date(ms).toISOString();
  if (!run.mediaFrom) {
    run.mediaFrom = iso(onAir);
    run.unwaitedFrom = iso(unwaited);
    return;
  }
  const breaks = run.mediaBreaks ?? [];
  const last = breaks.at(-1);
  if (last && seconds >= last.atSeconds + CONFIRMED_AFTER_SECONDS) last.confirmed = true;
  const anchor = Date.parse(last?.from ?? run.mediaFrom);
  // A run recorded before the wait was noted has none: its anchor stands in.
  const unwaitedAnchor = run.unwaitedFrom ? Date.parse(run.unwaitedFrom) : anchor - waitedMs;
  if (unwaited < unwaitedAnchor) run.unwaitedFrom = iso(unwaited);
  if (onAir < anchor) {
    if (!last) run.mediaFrom = iso(onAir);
    else last.from = iso(Math.max(onAir, Date.parse(breaks.at(-2)?.from ?? run.mediaFrom)));
    return;
  }
  const broke = onAir - anchor > BREAK_MS && unwaited - unwaitedAnchor > BREAK_MS;
  if (copying && broke && seconds > previousSeconds) {
    run.mediaBreaks = [...breaks.filter((b) => b.confirmed), { atSeconds: previousSeconds, from: iso(onAir) }];
    run.unwaitedFrom = iso(unwaited);
  }
}

/**
 * Coverage of [windowStart, windowEnd] (local ms). `toIso` maps a local time to the server's clock.
 * `until` is where the gaps stop (now, while recording; windowEnd once it is over).
 */
export function computeCoverage(
  windowStart: number,
  windowEnd: number,
  runs: RunMedia[],
  toIso: (ms: number) => string,
  until = windowEnd,
): Coverage {
  const intervals: Interval[] = runs
    .filter((r) => r.run.lastMediaAt !== null && r.seconds > 0)
    .flatMap((r) =>
      placement(r).map(({ start, end, broke }) => ({
        start: Math.max(windowStart, start),
        end: Math.min(windowEnd, end),
        run: r.run,
        broke,
      })),
    )
    .filter((i) => i.end > i.start)
    .sort((a, b) => a.start - b.start);

  let coveredMs = 0;
  const holes: { start: number; end: number; before: Interval | null }[] = [];
  let cursor = windowStart;
  let previous: Interval | null = null;
  const hole = (end: number) => {
    if (end > cursor) holes.push({ start: cursor, end, before: previous });
  };
  for (const interval of intervals) {
    if (interval.start > cursor) hole(Math.min(interval.start, until));
    if (interval.end > cursor) {
      coveredMs += interval.end - Math.max(cursor, interval.start);
      cursor = interval.end;
      previous = interval;
    }
  }
  if (until > cursor) hole(Math.min(until, windowEnd));

  const expectedSeconds = round((windowEnd - windowStart) / 1000);
  const coveredSeconds = round(coveredMs / 1000);
  const listsAll = listsEveryHole(coveredSeconds, expectedSeconds);
  const gaps: Gap[] = holes
    // A short hole at the live edge of a run still going is its reports' own lag, not a gap (yet).
    .filter((h) => h.end - h.start >= MIN_LISTED_GAP_MS || (listsAll && !(h.before && !h.before.run.endedAt)))
    .map((h) => {
      const { cause, reason, nothingLostYet } = gapCause(h.start, h.end, h.before, runs, windowStart);
      return {
        start: toIso(h.start),
        end: toIso(h.end),
        cause,
        reason,
        content_lost_seconds: nothingLostYet ? 0 : contentLostSeconds(cause, h.start, h.end),
      };
    });
  const withMedia = runs.filter((r) => r.seconds > 0).length;
  return { expectedSeconds, coveredSeconds, gaps, reconnects: Math.max(0, withMedia - 1) };
}

/**
 * Where a run's media lies: from its anchors (ffmpeg's output time against the clock, placeRunMedia),
 * else (a run recorded before they were noted) ending when its last media arrived.
 */
function placement(r: RunMedia): { start: number; end: number; broke: boolean }[] {
  if (!r.run.mediaFrom) {
    const last = Date.parse(r.run.lastMediaAt as string);
    return [{ start: last - r.seconds * 1000, end: last, broke: false }];
  }
  const anchors = [{ atSeconds: 0, from: r.run.mediaFrom }, ...(r.run.mediaBreaks ?? []).filter((b) => b.confirmed)];
  const lastReport = r.run.lastMediaAt ? Date.parse(r.run.lastMediaAt) : -Infinity;
  return anchors
    .map((anchor, i) => {
      const from = Date.parse(anchor.from);
      const upTo = Math.min(anchors[i + 1]?.atSeconds ?? r.seconds, r.seconds);
      const end = from + upTo * 1000;
      const last = i === anchors.length - 1;
      return {
        start: from + anchor.atSeconds * 1000,
        end: last && lastReport > end && lastReport - end < FLUSH_MS ? lastReport : end,
        broke: !last,
      };
    })
    .filter((span) => span.end > span.start);
}

/**
 * A recording that is not captured lists every hole as a gap, however short: its outcome must say
 * where it lost what made it partial (a partial with no gap said nothing). A captured one lists those
 * of MIN_LISTED_GAP_MS or more.
 */
export function listsEveryHole(coveredSeconds: number, expectedSeconds: number): boolean {
  return coveredSeconds < expectedSeconds * CAPTURED_SHARE;
}

/** Why [start, end] has no media: what ended the media before it, else why the first tries got none. */
function gapCause(
  start: number,
  end: number,
  before: Interval | null,
  runs: RunMedia[],
  windowStart: number,
): Pick<Gap, 'cause' | 'reason'> & { nothingLostYet?: boolean } {
  if (before?.broke)
    return { cause: 'stream_dropped', reason: 'Stream dropped (ffmpeg reconnected to it within the connection)' };
  if (before?.run.endReason) return { cause: before.run.endCause ?? 'stream_dropped', reason: before.run.endReason };
  // The live edge of a run still going: ffmpeg's reports after its media say it is working through the
  // stream behind the clock (ours; the connection holds what it has not written, so nothing is lost
  // while it may catch up); none say the stream has sent nothing since.
  if (before && !before.run.endedAt) {
    const seconds = Math.round((end - start) / 100) / 10;
    return reportedAfter(before, start)
      ? {
          cause: 'recorder_overloaded',
          reason: `Recorder behind: ffmpeg's output is ${seconds} s behind the stream`,
          nothingLostYet: true,
        }
      : { cause: 'stream_stalled', reason: `Stream stalled (no media for ${seconds} s so far)` };
  }
  // The run went on past the hole with nothing ending it (the window closed). Reports that kept coming
  // after its media say ffmpeg was working through the stream behind the clock (starved or slow): what it
  // had not written yet was on the air and ours to miss. No report after its media: the stream sent none.
  if (before?.run.endedAt && Date.parse(before.run.endedAt) >= end) {
    const seconds = Math.round((end - start) / 100) / 10;
    return reportedAfter(before, start)
      ? {
          cause: 'recorder_overloaded',
          reason: `Recorder fell behind: ffmpeg's output was ${seconds} s behind the stream when the recording stopped`,
        }
      : { cause: 'stream_stalled', reason: `Stream stalled (no media for ${seconds} s when the recording stopped)` };
  }
  const failed = runs.find((r) => r.seconds === 0 && r.run.endReason && Date.parse(r.run.startedAt) < end);
  if (failed?.run.endReason) return { cause: failed.run.endCause ?? 'not_live_yet', reason: failed.run.endReason };
  const first = runs[0] ? Date.parse(runs[0].run.startedAt) : null;
  if (first === null)
    return {
      cause: 'recorder_down',
      reason: start === windowStart ? 'The recorder had not started' : 'Recorder was down',
    };
  if (first >= end && start !== windowStart) return { cause: 'recorder_down', reason: 'Recorder was down' };
  // A hole at the window's start that ends before the first run began: the stream's burst on connecting
  // (a radio server sends seconds of its buffer at once) places media before the connection, so what is
  // left of the hole is the time before our recorder started.
  if (start === windowStart && (first >= end || first - windowStart > LATE_START_MS)) {
    // The machine was not ready when its window opened (a boot longer than the lead time).
    return {
      cause: 'recorder_late',
      reason: `The recorder started ${Math.round((first - windowStart) / 1000)} s after the window opened`,
    };
  }
  // The first connection got media: the stream was on the air, and a few seconds before its first media
  // are our connection's (what was on the air then is lost). Longer, the stream itself made us wait,
  // unless our probe had found its media before then: a busy machine's slow start is ours, not the stream's.
  const seconds = Math.round((end - start) / 100) / 10;
  const onAirAt = runs.find((r) => r.seconds > 0)?.run.onAirAt;
  if (end - start <= LATE_START_MS || (onAirAt && Date.parse(onAirAt) < end))
    return { cause: 'recorder_late', reason: `Connecting to the stream took ${seconds} s` };
  return { cause: 'not_live_yet', reason: `The stream sent its first media ${seconds} s after the connection` };
}

/** Whether ffmpeg's reports kept coming after the media placed up to `start`. */
function reportedAfter(before: Interval, start: number): boolean {
  const lastReport = before.run.lastMediaAt ? Date.parse(before.run.lastMediaAt) : start;
  return lastReport - start >= FLUSH_MS;
}

/** What a gap of this cause cost: all of it, unless nothing was on the air. */
export function contentLostSeconds(cause: GapCause, startMs: number, endMs: number): number {
  return cause === 'not_live_yet' ? 0 : round((endMs - startMs) / 1000);
}

export interface RunEnd {
  cause: GapCause;
  reason: string;
}

/** A run's end as a person reads it. `hadMedia`: this run got media; `everMedia`: any run before it did. */
export function describeRunEnd(
  end: { stalled: boolean; stallSeconds: number; code: number | null; error: string | null; spawnError: string | null },
  hadMedia: boolean,
  everMedia: boolean,
): RunEnd {
  if (end.spawnError) return { cause: 'recorder_down', reason: end.spawnError };
  const live = hadMedia || everMedia;
  if (!end.stalled && !end.error && end.code === 0) {
    if (hadMedia) return { cause: 'stream_dropped', reason: 'Stream ended' };
    return {
      cause: everMedia ? 'stream_dropped' : 'not_live_yet',
      reason: `Stream ${everMedia ? 'not back yet' : 'not live yet'} (it ended at once)`,
    };
  }
  const detail = end.stalled ? `no media for ${end.stallSeconds} s` : failureDetail(end.error, end.code);
  // ffmpeg's own read timeout ends a silent connection before the watchdog does: that is a stall too.
  const stalled = end.stalled || detail === 'connection timed out';
  if (hadMedia)
    return stalled
      ? { cause: 'stream_stalled', reason: `Stream stalled (${detail})` }
      : { cause: 'stream_dropped', reason: `Stream dropped (${detail})` };
  return live
    ? { cause: 'stream_dropped', reason: `Stream not back yet (${detail})` }
    : { cause: 'not_live_yet', reason: `Stream not live yet (${detail})` };
}

/** The detail of a failed connection, from ffmpeg's telling error line. */
function failureDetail(error: string | null, code: number | null): string {
  if (!error) return code === null ? 'ffmpeg was killed' : `ffmpeg exited with code ${code}`;
  const http =
    /(?:HTTP error|Server returned)\s*(\d{3})/i.exec(error) ??
    /\b([45]\d\d)\b\s+(?:Not Found|Forbidden|Unauthorized|Gone|Bad Gateway|Service Unavailable|Internal Server Error)/i.exec(
      error,
    );
  if (http) return `HTTP ${http[1]}`;
  if (/refused/i.test(error)) return 'connection refused';
  if (/timed out/i.test(error)) return 'connection timed out';
  return error.length > 160 ? `${error.slice(0, 157)}...` : error;
}

/** The outcome from the coverage: captured only when the media covers the window. */
export function outcomeFromCoverage(
  coverage: Coverage,
  lastError: string | null,
  stopReason: string | null,
): Pick<RecorderOutcome, 'status' | 'reason'> {
  if (coverage.coveredSeconds <= 0) {
    return { status: 'failed', reason: stopReason ?? `The stream never came: ${lastError ?? 'no media was received'}` };
  }
  if (coverage.coveredSeconds >= coverage.expectedSeconds * CAPTURED_SHARE) return { status: 'captured', reason: null };
  if (stopReason) return { status: 'partial', reason: stopReason };
  const seconds = (g: Gap) => (Date.parse(g.end) - Date.parse(g.start)) / 1000;
  // A reason that gives its gap's length already ("... 94.6 s behind the stream when the recording
  // stopped") is not followed by it again.
  const holes = coverage.gaps.slice(0, 3).map((g) => {
    const length = `${round(seconds(g))} s`;
    return new RegExp(`(^|[^\\d.])${length.replace('.', '\\.')}\\b`).test(g.reason)
      ? g.reason
      : `${g.reason} for ${length}`;
  });
  if (coverage.gaps.length > 3) holes.push(`and ${coverage.gaps.length - 3} more`);
  // What no gap accounts for is segments that followed on without a frame missing but took longer than
  // they hold: a stream slower than real time. Said, so that a partial always tells what it lacks; but
  // never "nothing missing" of a recording whose gaps lost content: then it is only counted.
  const slow = round(
    coverage.expectedSeconds - coverage.coveredSeconds - coverage.gaps.reduce((sum, g) => sum + seconds(g), 0),
  );
  const lostContent = coverage.gaps.some((g) => g.content_lost_seconds > 0);
  if (slow >= 1)
    holes.push(
      lostContent
        ? `${slow} s more between segments that followed on`
        : `the stream's segments came ${slow} s slower than real time, with nothing missing between them`,
    );
  return {
    status: 'partial',
    reason: `Recorded ${coverage.coveredSeconds} s of ${coverage.expectedSeconds} s${holes.length ? `: ${holes.join('; ')}` : ''}`,
  };
}

function round(seconds: number): number {
  return Math.round(seconds * 10) / 10;
}
