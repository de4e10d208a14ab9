import { countOf } from '../../../contract/plural';
import type { RecordingGap } from '../../../contract/instances';
import type { ProviderRecording } from '../../capture/provider';
import {
  contentLostSeconds,
  listsEveryHole,
  MIN_LISTED_GAP_MS,
  outcomeFromCoverage,
} from '../../../recorder/recorder-coverage';

/*
 * A recording whose recorder the fleet relaunched (relaunch.ts) is made of runs, each reporting its
 * own coverage of the whole window. The recording is what they covered together: a moment is a gap
 * only when no run covered it. Each finished run's reading is kept on the recording (column `runs`),
 * so a server restart does not lose what an earlier run covered.
 */

export const RECORDER_DOWN = 'Recorder was down';

/** One finished run, as stored. */
export interface RunRecord {
  /** When it started recording for this window (the first run: the window's start). */
  from: string;
  /** What its coverage was measured up to. */
  until: string;
  coveredSeconds: number;
  /** Its gaps inside [from, until]. */
  gaps: RecordingGap[];
  reconnects: number;
  reason: string | null;
  /** When the run after it was started. */
  relaunchedAt: string;
  /** Set when its server was lost and another server continued the recording: why (not a relaunch). */
  lostWithServer?: string;
}

export interface Window {
  start: number;
  end: number;
}

export function parseRuns(text: string): RunRecord[] {
  try {
    const runs = JSON.parse(text) as unknown;
    return Array.isArray(runs) ? (runs as RunRecord[]) : [];
  } catch {
    return [];
  }
}

/**
 * A recording's duration as reported: the seconds of media it holds, never more than its window. A
 * joined file holds a little beyond the window's edges (the segment that holds its first second, what
 * ffmpeg wrote out at the stop, at most a piece each side); those seconds are no part of what was asked
 * for, and a duration above the window would say the recording holds more of the sermon than there was.
 */
export function secondsWithinWindow(seconds: number | null, windowSeconds: number | null): number | null {
  if (seconds === null || windowSeconds === null) return seconds;
  return Math.min(seconds, windowSeconds);
}

const iso = (ms: number) => new Date(ms).toISOString();
const clamp = (ms: number, window: Window) => Math.min(window.end, Math.max(window.start, ms));

/**
 * A run from a driver's reading. A reading without coverage (a machine gone before its recorder
 * reported, say) covered nothing: all of its span is a gap with its reason.
 */
export function toRun(
  reading: ProviderRecording | null,
  from: number,
  readAt: number,
  window: Window,
  relaunchedAt: number,
): RunRecord {
  const until = Math.max(from, clamp(reading?.measuredUntil ? Date.parse(reading.measuredUntil) : readAt, window));
  const known = reading?.coveredSeconds !== null && reading?.coveredSeconds !== undefined;
  const gaps = known
    ? (reading.gaps ?? []).flatMap((gap) => {
        const start = Math.max(from, Date.parse(gap.start));
        const end = Math.min(until, Date.parse(gap.end));
        return end > start
          ? [
              {
                ...gap,
                start: iso(start),
                end: iso(end),
                content_lost_seconds: Math.min(gap.content_lost_seconds, (end - start) / 1000),
              },
            ]
          : [];
      })
    : until > from
      ? [downGap(from, until, reading?.reason ?? RECORDER_DOWN)]
      : [];
  return {
    from: iso(from),
    until: iso(until),
    coveredSeconds: known ? Number(reading.coveredSeconds) : 0,
    gaps,
    reconnects: reading?.reconnects ?? 0,
    reason: reading?.reason ?? null,
    relaunchedAt: iso(relaunchedAt),
  };
}

/**
 * The run of a recorder whose server was lost, which another server continues from `until`: what its
 * recording showed last (its coverage and gaps as last written) up to `knownUntil`, when that server
 * was last seen; from there on a server_down gap, since whatever it recorded then is on the lost
 * machine. A recording that never showed its coverage is unknown from `from`.
 */
export function lostRun(
  known: { coveredSeconds: number | null; gaps: RecordingGap[]; reconnects: number },
  from: number,
  knownUntil: number,
  until: number,
  reason: string,
): RunRecord {
  const seen = known.coveredSeconds === null ? from : Math.min(until, Math.max(from, knownUntil));
  const gaps = known.gaps.flatMap((gap) => {
    const start = Math.max(from, Date.parse(gap.start));
    const end = Math.min(seen, Date.parse(gap.end));
    return end > start ? [{ ...gap, start: iso(start), end: iso(end) }] : [];
  });
  const gapMs = gaps.reduce((sum, gap) => sum + Date.parse(gap.end) - Date.parse(gap.start), 0);
  if (until > seen)
    gaps.push({
      start: iso(seen),
      end: iso(until),
      cause: 'server_down',
      reason,
      content_lost_seconds: contentLostSeconds('server_down', seen, until),
    });
  return {
    from: iso(from),
    until: iso(until),
    // What it showed last, never more than its span outside its gaps (its recording may hold earlier runs').
    coveredSeconds: Math.max(0, Math.min(known.coveredSeconds ?? 0, (seen - from - gapMs) / 1000)),
    gaps,
    reconnects: known.reconnects,
    reason,
    relaunchedAt: iso(until),
    lostWithServer: reason,
  };
}

/** How many of these finished runs ended in a relaunch (their recorder died), not a lost server. */
export function relaunchesOf(finished: RunRecord[]): number {
  return finished.filter((run) => !run.lostWithServer).length;
}

interface Span {
  start: number;
  end: number;
}

/** The media spans a run's reading implies: its span minus its gaps. */
function coveredSpans(run: RunRecord): Span[] {
  const spans: Span[] = [];
  let cursor = Date.parse(run.from);
  for (const gap of [...run.gaps].sort((a, b) => a.start.localeCompare(b.start))) {
    if (Date.parse(gap.start) > cursor) spans.push({ start: cursor, end: Date.parse(gap.start) });
    cursor = Math.max(cursor, Date.parse(gap.end));
  }
  if (Date.parse(run.until) > cursor) spans.push({ start: cursor, end: Date.parse(run.until) });
  return spans;
}

/** A span no recorder covered: what the stream offered then is lost. */
function downGap(start: number, end: number, reason: string): RecordingGap {
  return {
    start: iso(start),
    end: iso(end),
    cause: 'recorder_down',
    reason,
    content_lost_seconds: contentLostSeconds('recorder_down', start, end),
  };
}

/**
 * The hole [start, end) in the causes the run alive at its start gave it: that run's gaps from there on,
 * each up to the next, the last one to the hole's end (a continuing recorder's first seconds belong to
 * the outage it continues). A recorder that had not started on a lost server, say, is its own gap, and
 * the loss after it another. Where no run gave a cause, the recorder was down.
 */
function holesAt(start: number, end: number, runs: RunRecord[]): RecordingGap[] {
  const alive = runs.filter((run) => Date.parse(run.from) <= start && start < Date.parse(run.until)).at(-1);
  const causes = (alive?.gaps ?? [])
    .filter((gap) => Date.parse(gap.end) > start && Date.parse(gap.start) < end)
    .sort((a, b) => a.start.localeCompare(b.start));
  if (!causes.length || Date.parse(causes[0].start) > start) return [downGap(start, end, RECORDER_DOWN)];
  return causes.flatMap((gap, index) => {
    const from = Math.max(start, Date.parse(gap.start));
    const to = index + 1 < causes.length ? Date.parse(causes[index + 1].start) : end;
    return to > from
      ? [{ ...gap, start: iso(from), end: iso(to), content_lost_seconds: contentLostSeconds(gap.cause, from, to) }]
      : [];
  });
}

/**
 * The recording's reading from all its runs (the current one last). Covered seconds are those of the
 * runs' joined spans less every run's unlisted short holes, so the union never claims more than the
 * media hold. `ended`: the window is over for this recording, so what no run reached is a gap too.
 */
export function unionOfRuns(
  runs: RunRecord[],
  window: Window,
  latest: ProviderRecording,
  ended: boolean,
): ProviderRecording {
  const spans = runs.flatMap(coveredSpans).sort((a, b) => a.start - b.start);
  const until = ended ? window.end : Math.max(...runs.map((run) => Date.parse(run.until)));
  let coveredMs = 0;
  let cursor = window.start;
  const holes: Span[] = [];
  const hole = (end: number) => {
    if (end > cursor) holes.push({ start: cursor, end });
  };
  for (const span of spans) {
    if (span.start > cursor) hole(Math.min(span.start, until));
    if (span.end > cursor) {
      coveredMs += span.end - Math.max(cursor, span.start);
      cursor = span.end;
    }
  }
  if (until > cursor) hole(until);
  const unlistedMs = runs.reduce((sum, run) => {
    const gapMs = run.gaps.reduce((g, gap) => g + Date.parse(gap.end) - Date.parse(gap.start), 0);
    return sum + Math.max(0, Date.parse(run.until) - Date.parse(run.from) - gapMs - run.coveredSeconds * 1000);
  }, 0);
  const expectedSeconds = Math.round((window.end - window.start) / 100) / 10;
  const coveredSeconds = Math.max(0, Math.round((coveredMs - unlistedMs) / 100) / 10);
  // As the recorder lists them: every hole of a recording that is not captured, the longer ones of one that is.
  const listsAll = listsEveryHole(coveredSeconds, expectedSeconds);
  const coverage = {
    expectedSeconds,
    coveredSeconds,
    gaps: holes
      .filter((h) => listsAll || h.end - h.start >= MIN_LISTED_GAP_MS)
      .flatMap((h) => holesAt(h.start, h.end, runs)),
    reconnects: runs.reduce((sum, run) => sum + run.reconnects, 0),
  };
  const relaunches = relaunchesOf(runs.slice(0, -1));
  if (latest.status === 'recording') return { ...latest, ...coverage, relaunches, measuredUntil: iso(until) };
  const stopReason = latest.stoppedByOperator ? latest.reason : null;
  const outcome = outcomeFromCoverage(coverage, latest.reason, stopReason);
  const reason =
    outcome.reason && relaunches > 0
      ? `${outcome.reason} (the recorder was relaunched ${countOf(relaunches, 'time')})`
      : outcome.reason;
  return { ...latest, ...coverage, relaunches, status: outcome.status, reason, measuredUntil: iso(until) };
}
