import { HOLE_MIN_MS } from '../../testkit/fidelity-origin';
import { EXPECTED_CAUSE, type LabFaultKind } from './faults';

/** A gap as GET /api/recordings reports it (epoch ms); `cause` is absent from servers older than the cause vocabulary. */
export interface ReportedGap {
  start: number;
  end: number;
  cause: string | undefined;
  reason: string;
}

export interface Interval {
  from: number;
  to: number;
}

/** A fault as it happened (epoch ms): the origin's truth, the radio's drop, or the season's SIGKILL of a recorder. */
export interface FaultSpan extends Interval {
  fault: { kind: LabFaultKind };
}

/** How far (ms) a reported gap's ends may lie from the true hole's. */
export const PLACEMENT_SLACK_MS = 2000;
/**
 * A gap starting this long (ms) after a fault's interval is still its doing: a reader behind the live
 * edge notices a reset or a drop a few segments late.
 */
export const DETECTION_SLACK_MS = 15_000;
/** A true hole this long (ms) should be reported as a gap. */
export const REPORTABLE_HOLE_MS = 10_000;

const overlap = (a: Interval, b: Interval) => Math.max(0, Math.min(a.to, b.to) - Math.max(a.from, b.from));
/** Where a fault's doing may be reported: from the placement slack before it to the detection slack after it. */
const around = (fault: FaultSpan) => ({ from: fault.from - PLACEMENT_SLACK_MS, to: fault.to + DETECTION_SLACK_MS });
/** The causes that put a hole down to the stream. */
const STREAM_CAUSES: ReadonlySet<string | undefined> = new Set(['stream_dropped', 'stream_stalled']);

export interface GapScore {
  /**
   * Reported gaps more than 2 s from the true hole they overlap most, or overlapping none (unless shorter
   * than the shortest hole the read-back sees: a connection's last second may be a true hole it misses).
   */
  misplaced: ReportedGap[];
  /**
   * Reported gaps over a fault (or starting up to 15 s after it) that name another cause than the fault's,
   * gaps that say the stream was not live yet where it was (away from a late start), and, on a recording
   * whose recorder was starved (its stream never failed), every gap that puts a hole down to the stream.
   */
  wrongCauses: ReportedGap[];
  /** True holes of 10 s or more that no reported gap overlaps. */
  unreported: Interval[];
}

/** Compares the gaps a recording reports with the holes its frames show and the faults that made them. */
export function scoreGaps(gaps: ReportedGap[], holes: Interval[], faults: FaultSpan[]): GapScore {
  /** The true hole a gap overlaps most. */
  const holeOf = (gap: ReportedGap) => {
    const span = { from: gap.start, to: gap.end };
    return holes.reduce<Interval | undefined>(
      (best, h) => (overlap(span, h) > (best ? overlap(span, best) : 0) ? h : best),
      undefined,
    );
  };
  const misplaced = gaps.filter((gap) => {
    const hole = holeOf(gap);
    if (!hole) return gap.end - gap.start >= HOLE_MIN_MS;
    return Math.abs(gap.start - hole.from) > PLACEMENT_SLACK_MS || Math.abs(gap.end - hole.to) > PLACEMENT_SLACK_MS;
  });
  // A gap over a fault is its doing, unless the hole it reports had ended before the fault began (a recorder
  // that connected late, just before a drop): placed within the slack, it still touches the fault's span.
  const over = (gap: ReportedGap, fault: FaultSpan) =>
    overlap({ from: gap.start, to: gap.end }, around(fault)) > 0 && (holeOf(gap)?.to ?? Infinity) > fault.from;
  const lateStarts = faults.filter((fault) => fault.fault.kind === 'late_start');
  const starved = faults.some((fault) => fault.fault.kind === 'recorder_starved');
  const wrongCauses = gaps.filter(
    (gap) =>
      faults.some((fault) => {
        const expected = EXPECTED_CAUSE[fault.fault.kind];
        return expected !== undefined && over(gap, fault) && gap.cause !== expected;
      }) ||
      (gap.cause === 'not_live_yet' && !lateStarts.some((fault) => over(gap, fault))) ||
      (starved && STREAM_CAUSES.has(gap.cause)),
  );
  const unreported = holes.filter(
    (hole) =>
      hole.to - hole.from >= REPORTABLE_HOLE_MS &&
      !gaps.some((gap) => overlap({ from: gap.start, to: gap.end }, hole) > 0),
  );
  return { misplaced, wrongCauses, unreported };
}

/**
 * Whether a loss (frames the stream offered that the recording lacks) is the starvation's doing, said
 * as such: it lies inside a `recorder_overloaded` gap (to the placement slack at each end) that is over
 * a starvation of the recorder. A loss no such gap covers, or covers only in part, stays lost by us.
 */
export function lostToStarvation(loss: Interval, gaps: ReportedGap[], faults: FaultSpan[]): boolean {
  const starvations = faults.filter((fault) => fault.fault.kind === 'recorder_starved');
  return gaps.some(
    (gap) =>
      gap.cause === 'recorder_overloaded' &&
      loss.from >= gap.start - PLACEMENT_SLACK_MS &&
      loss.to <= gap.end + PLACEMENT_SLACK_MS &&
      starvations.some((fault) => overlap({ from: gap.start, to: gap.end }, around(fault)) > 0),
  );
}
