import type { NumberedSegment } from './numbered-stream';

/*
 * The broadcast a fidelity origin plays, as pure arithmetic over seconds since its start: when each
 * segment is published, which run (encoder start) and media sequence it has, when it leaves the
 * playlist, and whether a client could ever have fetched it. testkit/fidelity-origin.ts serves it.
 */

/** A scripted fault, in seconds since the broadcast's start (the origin's clock, not the media's). */
export type OriginFault =
  /** Nothing on the air before `at`: every request answers 404; the programme starts then. */
  | { kind: 'late_start'; at: number }
  /** The playlist answers 404 (segments still answer): the stream dropped for the client. */
  | { kind: 'playlist_404'; at: number; seconds: number }
  /** Every request in the interval hangs without a byte until the interval ends. */
  | { kind: 'held_open'; at: number; seconds: number }
  /**
   * The encoder restarts in place: the segment in progress opens a new run at media sequence 0, after a
   * discontinuity. With `pause`, the encoder is off the air that many seconds first: nothing is published
   * then, and the programme takes up again where it was (a hole on the air, no frame skipped).
   */
  | { kind: 'encoder_restart'; at: number; pause?: number }
  /**
   * The playlist stops being updated for the interval (it answers as it was at its start) while segments
   * go on being made and answer; at the interval's end it lists them all again (a lagging CDN edge).
   */
  | { kind: 'stale_playlist'; at: number; seconds: number }
  /** The programme is published at 0.7x real time (or `rate`) during the interval. */
  | { kind: 'slow_origin'; at: number; seconds: number; rate?: number }
  /** Segments no longer in the playlist answer 404 during the interval. */
  | { kind: 'segment_expiry'; at: number; seconds: number };

export type FaultKind = OriginFault['kind'];

export const SLOW_ORIGIN_RATE = 0.7;

export interface Interval {
  from: number;
  to: number;
}

/** A constant publishing rate over [from, to) seconds since the start. */
interface RatePiece extends Interval {
  rate: number;
  /** Media seconds published at `from`. */
  mediaAtFrom: number;
}

const intervalOf = (fault: OriginFault): Interval =>
  'seconds' in fault
    ? { from: fault.at, to: fault.at + fault.seconds }
    : fault.kind === 'late_start'
      ? { from: 0, to: fault.at }
      : { from: fault.at, to: fault.at + (fault.pause ?? 0) };

export const inside = (t: number, interval: Interval) => t >= interval.from && t < interval.to;

export class BroadcastSchedule {
  private readonly pieces: RatePiece[];
  /** Media seconds at the end of each segment. */
  private readonly mediaEnds: number[];
  /** Seconds since the start at which each segment is published. */
  readonly publishedAt: number[];
  /** Run of each segment (0 before any encoder restart). */
  readonly runOf: number[];
  /** First segment of each run. */
  private readonly runBase: number[];

  constructor(
    readonly segments: readonly NumberedSegment[],
    readonly faults: readonly OriginFault[],
    readonly dvrSegments: number,
    readonly playlistType: 'sliding' | 'event',
  ) {
    this.pieces = ratePieces(faults);
    let media = 0;
    this.mediaEnds = segments.map((s) => (media += s.durationSeconds));
    this.publishedAt = this.mediaEnds.map((m) => this.wallAtMedia(m));
    const restarts = faults.filter((f) => f.kind === 'encoder_restart').map((f) => f.at);
    // A segment finished at the restart's instant is the old encoder's last.
    this.runOf = this.publishedAt.map((at) => restarts.filter((r) => r < at).length);
    this.runBase = [];
    this.runOf.forEach((run, k) => {
      for (let r = this.runBase.length; r <= run; r++) this.runBase.push(k);
    });
  }

  /**
   * Seconds since the start at which the media clock reaches `media` seconds of programme; `leaving`:
   * at which it moves on from there (where a frame starts to be shown), which differs only where the
   * clock stood still at that point (an encoder's pause right after it).
   */
  wallAtMedia(media: number, leaving = false): number {
    for (const piece of this.pieces) {
      if (piece.rate === 0) continue;
      const reached = piece.mediaAtFrom + piece.rate * (piece.to - piece.from);
      if (leaving ? media < reached : media <= reached) return piece.from + (media - piece.mediaAtFrom) / piece.rate;
    }
    throw new Error('unreachable: the last rate piece is open-ended');
  }

  /** How many segments are published at `t` seconds since the start. */
  publishedCount(t: number): number {
    let low = 0;
    let high = this.publishedAt.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.publishedAt[mid] <= t) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  sequenceOf(k: number): number {
    return k - this.runBase[this.runOf[k]];
  }

  /** Segment of media sequence `sequence` in the run on the air at `t`, if it is published. */
  segmentAt(t: number, sequence: number): number | undefined {
    const published = this.publishedCount(t);
    if (published === 0) return undefined;
    const k = this.runBase[this.runOf[published - 1]] + sequence;
    return k < published ? k : undefined;
  }

  /** The segments the playlist shows at `t`: those listed then, or at the start of a stale interval `t` is in. */
  shown(t: number): number[] {
    const stale = this.faults
      .filter((f) => f.kind === 'stale_playlist')
      .map(intervalOf)
      .find((interval) => inside(t, interval));
    return this.listed(stale?.from ?? t);
  }

  /** The segments the playlist lists at `t`, oldest first. */
  listed(t: number): number[] {
    const published = this.publishedCount(t);
    if (published === 0) return [];
    let first = this.runBase[this.runOf[published - 1]];
    if (this.playlistType === 'sliding') first = Math.max(first, published - this.dvrSegments);
    return Array.from({ length: published - first }, (_, i) => first + i);
  }

  /** When segment k leaves the playlist (a later one pushes it out, or a new run replaces its run); undefined while it is listed for good. */
  expiredAt(k: number): number | undefined {
    const nextRun = this.runBase[this.runOf[k] + 1];
    const pushedBy = this.playlistType === 'sliding' ? k + this.dvrSegments : Infinity;
    const by = Math.min(pushedBy, nextRun ?? Infinity);
    return by < this.publishedAt.length ? this.publishedAt[by] : undefined;
  }

  /** The end of the programme has been published: the playlist ends (EXT-X-ENDLIST). */
  ended(t: number): boolean {
    return this.publishedCount(t) === this.segments.length;
  }

  /** Intervals in which no playlist can be had: before a late start, a playlist 404, a held connection. */
  blackouts(): Interval[] {
    return this.faults
      .filter((f) => f.kind === 'late_start' || f.kind === 'playlist_404' || f.kind === 'held_open')
      .map(intervalOf);
  }

  /** The end of the held_open interval `t` falls in, if any. */
  heldUntil(t: number): number | undefined {
    return this.faults
      .filter((f) => f.kind === 'held_open')
      .map(intervalOf)
      .find((held) => inside(t, held))?.to;
  }

  faultInterval(fault: OriginFault): Interval {
    return intervalOf(fault);
  }

  active(kind: FaultKind, t: number): boolean {
    return this.faults.some((f) => f.kind === kind && inside(t, intervalOf(f)));
  }

  /** The segments a client could fetch at `t`: those the playlist shows, unless no playlist can be had then. */
  offeredAt(t: number): number[] {
    return this.blackouts().some((b) => inside(t, b)) ? [] : this.shown(t);
  }

  /**
   * Whether a client could have fetched segment k by `now`: some instant at which a playlist could be
   * had that showed it (a segment is only found through a playlist that lists it).
   */
  offered(k: number, now: number): boolean {
    const from = this.publishedAt[k];
    const to = this.expiredAt(k) ?? Infinity;
    const blackouts = this.blackouts();
    const staleEnds = this.faults.filter((f) => f.kind === 'stale_playlist').map((f) => intervalOf(f).to);
    // The first instant it was listed, and every instant a blackout or a stale playlist ended while it was.
    const candidates = [from, ...blackouts.map((b) => b.to), ...staleEnds].filter(
      (t) => t >= from && t < to && t <= now,
    );
    return candidates.some((t) => !blackouts.some((b) => inside(t, b)) && this.shown(t).includes(k));
  }
}

/** The publishing rate over time: 0 before a late start and in an encoder's pause, the slow rate in a slow interval, else 1. */
function ratePieces(faults: readonly OriginFault[]): RatePiece[] {
  const late = faults.find((f) => f.kind === 'late_start')?.at ?? 0;
  const slow = faults.filter((f) => f.kind === 'slow_origin');
  const paused = faults.filter((f) => f.kind === 'encoder_restart' && (f.pause ?? 0) > 0).map(intervalOf);
  const rateAt = (t: number) =>
    t < late || paused.some((p) => inside(t, p))
      ? 0
      : Math.min(1, ...slow.filter((f) => inside(t, intervalOf(f))).map((f) => f.rate ?? SLOW_ORIGIN_RATE));
  const cuts = [
    ...new Set([0, late, ...slow.flatMap((f) => [f.at, f.at + f.seconds]), ...paused.flatMap((p) => [p.from, p.to])]),
  ]
    .filter((t) => t >= 0)
    .sort((a, b) => a - b);
  const pieces: RatePiece[] = [];
  let media = 0;
  cuts.forEach((from, i) => {
    const to = cuts[i + 1] ?? Infinity;
    const rate = rateAt(from);
    pieces.push({ from, to, rate, mediaAtFrom: media });
    if (to !== Infinity) media += rate * (to - from);
  });
  return pieces;
}
