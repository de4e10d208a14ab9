import type { RecordingGap } from '../../../contract/instances';
import { computeCoverage, contentLostSeconds, type RunMedia } from '../../../recorder/recorder-coverage';
import type { Coverage } from '../../../recorder/protocol';

/*
 * Where the segments a recording's recorders delivered to the store lie in its window. Each launch
 * ships its pieces to `segments/<launch time>/run-RRRR-PPPPP.ts` as soon as ffmpeg closes them, and a
 * piece's timestamps are reset, so the media itself carries no wall time: the time a piece reached the
 * store is the latest its content can end. A run's pieces are contiguous, so the run ends at the
 * earliest of (arrival of a piece + the seconds of the pieces after it): one piece that arrived late
 * (an upload retried) does not move the run. This is the recorder's own rule (its media ends when its
 * last media arrived, recorder-coverage.ts), applied to what reached the store.
 */

const SEGMENT = /(?:^|\/)segments\/([^/]+)\/run-(\d{4})-(\d{5})\.ts$/;

export interface DeliveredSegment {
  key: string;
  /** Probed seconds of media; 0 when it holds none. */
  seconds: number;
  /** When it reached the store (ms). */
  arrivedAt: number;
}

/** One ffmpeg run of one launch: its pieces in order. */
export interface SegmentRun {
  launch: string;
  run: number;
  segments: DeliveredSegment[];
}

/** The segment keys among a listing, grouped into runs in recording order (launch time, run, piece). */
export function groupSegments(segments: DeliveredSegment[]): SegmentRun[] {
  const runs = new Map<string, SegmentRun>();
  for (const segment of segments) {
    const match = SEGMENT.exec(segment.key);
    if (!match) continue;
    const id = `${match[1]}/${match[2]}`;
    const run = runs.get(id) ?? { launch: match[1], run: Number(match[2]), segments: [] };
    run.segments.push(segment);
    runs.set(id, run);
  }
  for (const run of runs.values()) run.segments.sort((a, b) => (a.key < b.key ? -1 : 1));
  return [...runs.values()].sort((a, b) => (a.launch === b.launch ? a.run - b.run : a.launch < b.launch ? -1 : 1));
}

/** When a run's media ended (ms), by the arrival of its pieces. */
export function runEnd(run: SegmentRun): number {
  let end = Infinity;
  let after = 0;
  for (const segment of [...run.segments].reverse()) {
    end = Math.min(end, segment.arrivedAt + after * 1000);
    after += segment.seconds;
  }
  return end;
}

/**
 * Coverage of the window by the delivered runs. Gaps keep the reason the recording already gave for
 * that moment (the recorder was down, the stream dropped) where one overlaps; else nothing reached the store.
 */
export function coverageOfSegments(
  runs: SegmentRun[],
  window: { start: number; end: number },
  knownGaps: RecordingGap[],
): Coverage {
  const media: RunMedia[] = runs.map((run, index) => {
    const seconds = run.segments.reduce((sum, s) => sum + s.seconds, 0);
    const end = new Date(runEnd(run)).toISOString();
    const start = new Date(runEnd(run) - seconds * 1000).toISOString();
    return {
      seconds,
      run: {
        index,
        startedAt: start,
        firstMediaAt: start,
        lastMediaAt: end,
        endedAt: end,
        endReason: null,
        error: null,
        mediaSeconds: seconds,
        bytes: 0,
      },
    };
  });
  const coverage = computeCoverage(window.start, window.end, media, (ms) => new Date(ms).toISOString());
  return {
    ...coverage,
    gaps: coverage.gaps.map((gap) => {
      const known = knownGap(gap, knownGaps);
      const cause = known?.cause ?? 'store_unreachable';
      return {
        ...gap,
        cause,
        reason: known?.reason ?? 'No media reached the store',
        content_lost_seconds: contentLostSeconds(cause, Date.parse(gap.start), Date.parse(gap.end)),
      };
    }),
  };
}

/** The gap the recording already reported that overlaps this one most. */
function knownGap(gap: RecordingGap, known: RecordingGap[]): RecordingGap | undefined {
  const overlap = (other: RecordingGap) =>
    Math.min(Date.parse(gap.end), Date.parse(other.end)) - Math.max(Date.parse(gap.start), Date.parse(other.start));
  return known.filter((other) => overlap(other) > 0).sort((a, b) => overlap(b) - overlap(a))[0];
}
