/*
 * The ledger of an HLS capture: every segment kept (by epoch and media sequence number, placed on the
 * stream's own time line), every segment the stream offered that was not kept, and the conditions the
 * reader met (not live yet, dropped, stalled, a sequence reset, the recorder down). It is saved in the
 * instance folder, so a recorder started again after a crash carries on after the last segment kept:
 * nothing is fetched twice and a join cannot repeat. Coverage and gaps come from it: a hole in the
 * media is put down to the condition that overlaps it, and loses only what the stream offered then.
 * Part of the recorder runtime: Node and its siblings only.
 */
import fs from 'node:fs';
import { contentLostSeconds, listsEveryHole, MIN_LISTED_GAP_MS } from './recorder-coverage';
import { writeTextAtomic, type Coverage, type Gap, type GapCause } from './recorder-state';

/** A segment in the recording. Times are this machine's clock (ms). */
export interface KeptSegment {
  /** Counts sequence resets: sequence numbers are unique within an epoch. */
  epoch: number;
  sequence: number;
  seconds: number;
  /** Where its content lies on the stream's time line. */
  start: number;
  /** The ffmpeg run that holds it. */
  run: number;
  /** Where the stream's own clock put its first frame (EXT-X-PROGRAM-DATE-TIME, epoch ms), when it said. */
  programTime?: number;
  /**
   * It follows the segment before without a hole: the next number of the same numbering, published
   * less than a stall after it (a stream slower than real time stretches, it does not break).
   */
  joined?: boolean;
  /**
   * Placed from a reading (counted back from the newest segment listed, as if just published), not
   * after the segment before: the first of a stretch that a later reading may prove lies earlier.
   */
  estimated?: boolean;
  /**
   * A reading asked at this time (epoch ms) did not list it yet: it was published later, so the stream
   * was on the air with it until then at least. Only when a reading says.
   */
  publishedAfter?: number;
}

/** Content the stream offered that the recording does not hold. */
export interface LostContent {
  start: number;
  end: number;
  seconds: number;
  reason: string;
}

/** A span in which the reader got no new segment, and why. `end` null: still going on. */
export interface Condition {
  start: number;
  end: number | null;
  cause: GapCause;
  reason: string;
}

interface LedgerFile {
  epoch: number;
  kept: KeptSegment[];
  lost: LostContent[];
  conditions: Condition[];
  /** When a recorder last saved it: a recorder started after a crash knows since when it was down. */
  aliveAt: number | null;
}

/** A recording continued on this host after its server was lost elsewhere: since when it holds nothing, and why. */
interface LostServer {
  since: number;
  reason: string;
}

/** One change to the ledger, as its file appends it: replayed in order on the file's first line, they rebuild it. */
type Change =
  | ['epoch']
  | ['keep', Omit<KeptSegment, 'epoch'>]
  | ['forget', number, number]
  | ['lose', LostContent]
  | ['meet', GapCause, string, number]
  | ['clear', number]
  | ['started', number, number, LostServer?]
  | ['alive', number]
  | ['earlier', number];

/**
 * The ledger's file is one line holding the whole ledger, then one line per change since. A change is
 * appended (a segment kept is on disk before the next is fetched, so a crash cannot make it fetched
 * twice), never the whole file rewritten: rewriting it (write and rename) once a second and after each
 * segment was most of a copying recorder's own CPU, and grows with the window. A recorder rewrites it
 * whole when it starts on it and when it finishes; a line a crash cut short ends it.
 */
export class SegmentLedger {
  private data: LedgerFile = { epoch: 0, kept: [], lost: [], conditions: [], aliveAt: null };
  /** Changes made since the last save, to append. */
  private pending: Change[] = [];
  /** The file holds this ledger whole as its first line (written by this process): changes can be appended to it. */
  private whole = false;

  constructor(private readonly file: string | null) {
    if (!file) return;
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      return;
    }
    this.load(text);
  }

  /** A ledger from the text of its file (one shipped to the object store). */
  static parse(text: string): SegmentLedger {
    const ledger = new SegmentLedger(null);
    ledger.load(text);
    return ledger;
  }

  private load(text: string): void {
    const [first = '', ...changes] = text.split('\n');
    try {
      this.data = JSON.parse(first) as LedgerFile;
    } catch {
      // Written whole on several lines (before changes were appended).
      this.data = JSON.parse(text) as LedgerFile;
      return;
    }
    for (const line of changes) {
      let change: Change;
      try {
        change = JSON.parse(line) as Change;
      } catch {
        break; // the last line, cut short by a crash (or the file's final newline)
      }
      this.replay(change);
    }
    this.pending = [];
  }

  private replay(change: Change): void {
    switch (change[0]) {
      case 'epoch':
        return this.newEpoch();
      case 'keep':
        return this.keep(change[1]);
      case 'forget':
        return void this.forgetAfter(change[1], change[2]);
      case 'lose':
        return this.loseContent(change[1]);
      case 'meet':
        return this.meet(change[1], change[2], change[3]);
      case 'clear':
        return this.clear(change[1]);
      case 'started':
        return this.recorderStarted(change[1], change[2], change[3]);
      case 'earlier':
        return this.placeEarlier(change[1]);
      case 'alive':
        this.data.aliveAt = change[1];
    }
  }

  get epoch(): number {
    return this.data.epoch;
  }

  get kept(): readonly KeptSegment[] {
    return this.data.kept;
  }

  get lost(): readonly LostContent[] {
    return this.data.lost;
  }

  get conditions(): readonly Condition[] {
    return this.data.conditions;
  }

  /** The last segment kept, of any epoch. */
  last(): KeptSegment | undefined {
    return this.data.kept.at(-1);
  }

  /** The last segment kept of the current numbering, and where its content ends: where another recorder would go on. */
  resumePoint(): { sequence: number; end: number } | null {
    const last = this.last();
    return last && last.epoch === this.data.epoch
      ? { sequence: last.sequence, end: last.start + last.seconds * 1000 }
      : null;
  }

  /** The last sequence number kept in the current epoch, or null. */
  lastSequence(): number | null {
    const last = this.last();
    return last && last.epoch === this.data.epoch ? last.sequence : null;
  }

  /** The stream's numbering started again: sequence numbers from here on are new content. */
  newEpoch(): void {
    this.data.epoch++;
    this.pending.push(['epoch']);
  }

  keep(segment: Omit<KeptSegment, 'epoch'>): void {
    this.data.kept.push({ ...segment, epoch: this.data.epoch });
    this.pending.push(['keep', segment]);
  }

  /** The kept segments of a run after its first `seconds`: they never reached a closed piece (a crash cut the run). */
  forgetAfter(run: number, seconds: number): KeptSegment[] {
    let total = 0;
    const forgotten: KeptSegment[] = [];
    this.data.kept = this.data.kept.filter((k) => {
      if (k.run !== run) return true;
      total += k.seconds;
      if (total <= seconds + 0.5) return true;
      forgotten.push(k);
      return false;
    });
    if (forgotten.length) this.pending.push(['forget', run, seconds]);
    return forgotten;
  }

  /**
   * A reading proved the last segment kept ends `ms` earlier than placed (a playlist lists only what was
   * published by its answer): the stretch it ends, from the last segment placed from a reading on, and
   * the content lost from there on (placed after it, or before it by what was missed), move that much
   * earlier. The estimate that placed the stretch counted from a newest segment as if just published.
   */
  placeEarlier(ms: number): void {
    const kept = this.data.kept;
    const first = kept.findLastIndex((k) => k.estimated);
    if (first < 0) return;
    const from = kept[first].start;
    for (const segment of kept.slice(first)) segment.start -= ms;
    for (const lost of this.data.lost.filter((l) => l.end >= from)) {
      lost.start -= ms;
      lost.end -= ms;
    }
    this.pending.push(['earlier', ms]);
  }

  loseContent(lost: LostContent): void {
    this.data.lost.push(lost);
    this.pending.push(['lose', lost]);
  }

  /**
   * The reader meets a condition from `at` on; the same cause goes on, another one replaces it. A
   * sequence reset is seen when the new numbering is listed, after the encoder's pause: the pause lies
   * from the end of the content kept, and what the reader met in it (no new segment, a dropped
   * playlist) was the restart.
   */
  meet(cause: GapCause, reason: string, at: number): void {
    this.pending.push(['meet', cause, reason, at]);
    const open = this.openCondition();
    if (open?.cause === cause) {
      open.reason = reason;
      return;
    }
    const last = this.last();
    const reset = cause === 'sequence_reset' && last !== undefined;
    const from = reset ? Math.min(at, last.start + last.seconds * 1000) : at;
    if (reset && open && open.start >= from) this.data.conditions.pop();
    else this.closeOpen(from);
    this.data.conditions.push({ start: from, end: null, cause, reason });
  }

  /** Segments flow again. */
  clear(at: number): void {
    if (this.closeOpen(at)) this.pending.push(['clear', at]);
  }

  private closeOpen(at: number): boolean {
    const open = this.openCondition();
    if (open) open.end = at;
    return open !== undefined;
  }

  openCondition(): Condition | undefined {
    const last = this.data.conditions.at(-1);
    return last && last.end === null ? last : undefined;
  }

  /**
   * A recorder starting on this ledger: when one ran before, the time since its last save was a time
   * without a recorder; the first one may have started after the window opened, or continue on this host
   * a recording whose server was lost elsewhere (`lostServer`: since when it holds nothing, and why).
   */
  recorderStarted(at: number, windowStart: number, lostServer?: LostServer): void {
    this.pending.push(lostServer ? ['started', at, windowStart, lostServer] : ['started', at, windowStart]);
    if (this.data.aliveAt === null && lostServer) {
      this.data.conditions.push({
        start: Math.min(lostServer.since, at),
        end: at,
        cause: 'server_down',
        reason: lostServer.reason,
      });
    } else if (this.data.aliveAt === null && at - windowStart > 2000) {
      this.data.conditions.push({
        start: windowStart,
        end: at,
        cause: 'recorder_late',
        reason: `The recorder started ${Math.round((at - windowStart) / 1000)} s after the window opened`,
      });
    }
    if (this.data.aliveAt !== null && at - this.data.aliveAt > 1000) {
      this.closeOpen(this.data.aliveAt);
      this.data.conditions.push({
        start: this.data.aliveAt,
        end: at,
        cause: 'recorder_down',
        reason: 'Recorder was down',
      });
    }
    this.data.aliveAt = at;
  }

  /**
   * Appends what changed, and notes the recorder alive at `at`; with nothing changed, only once its
   * last note is `aliveEveryMs` old (a recorder that dies was known alive that long before at worst).
   */
  save(at: number, aliveEveryMs = 0): void {
    if (this.pending.length === 0 && at - (this.data.aliveAt ?? -Infinity) < aliveEveryMs) return;
    this.data.aliveAt = at;
    this.pending.push(['alive', at]);
    if (!this.file) return void (this.pending = []);
    if (!this.whole) return this.saveWhole();
    try {
      fs.appendFileSync(this.file, this.pending.map((change) => `${JSON.stringify(change)}\n`).join(''));
      this.pending = [];
    } catch (error) {
      // Part of a line may be on disk: the next save writes the file whole again.
      this.whole = false;
      throw error;
    }
  }

  /** Rewrites the file as the ledger alone, on one line (at the end, the file a person or the next machine reads). */
  saveWhole(): void {
    if (!this.file) return;
    writeTextAtomic(this.file, `${JSON.stringify(this.data)}\n`);
    this.whole = true;
    this.pending = [];
  }
}

/**
 * How long after `previous` ended a segment's content begins by the stream's own clock
 * (EXT-X-PROGRAM-DATE-TIME on both), never less than 0; null when either does not say. It is the
 * stream's own word on a pause: an encoder off the air, or content that was never published.
 */
export function programPauseMs(previous: KeptSegment, programTime: number | null): number | null {
  if (previous.programTime === undefined || programTime === null) return null;
  return Math.max(0, programTime - (previous.programTime + previous.seconds * 1000));
}

/** What a run's pieces hold, when they may hold less than was fed to it, and why they would. */
export interface HeldMedia {
  seconds: number;
  cause: GapCause;
  reason: string;
}

/**
 * What the kept segments cover of [windowStart, windowEnd] up to `until`, and the holes with their
 * causes. `held(run)`: what a run's pieces hold, when measured and possibly short; a run whose pieces
 * hold less than was fed to it (ffmpeg died, pieces did not reach the store) covers only that much,
 * and the rest of what was fed to it is a gap of that cause where it was.
 */
export function ledgerCoverage(
  ledger: SegmentLedger,
  window: { start: number; end: number },
  until: number,
  toIso: (ms: number) => string,
  held: (run: number) => HeldMedia | null = () => null,
): Coverage {
  const clipped = <T extends { start: number; end: number }>(s: T): T => ({
    ...s,
    start: Math.max(window.start, s.start),
    end: Math.min(window.end, until, s.end),
  });
  const inWindow = <T extends { start: number; end: number }>(spans: T[]): T[] =>
    spans.map(clipped).filter((s) => s.end > s.start);
  const { fed, kept, shortfalls } = keptSpans(ledger.kept, held);
  const media = inWindow(kept).sort((a, b) => a.start - b.start);
  let coveredMs = 0;
  let mediaCursor = window.start;
  for (const span of media) {
    if (span.end <= mediaCursor) continue;
    coveredMs += span.end - Math.max(mediaCursor, span.start);
    mediaCursor = span.end;
  }
  const expectedSeconds = round((window.end - window.start) / 1000);
  const coveredSeconds = round(coveredMs / 1000);

  // Holes are where nothing was on the air for us: between spans that do not join. A recording that is
  // not captured lists every hole, however short: its outcome must say where it lost what it lost. Inside
  // a stretch of joined segments there is none: their content follows on without a frame missing, and
  // what they leave of the window is a stream that ran slower than real time (or was read late on a busy
  // machine), which the outcome's reason states. Listed as holes they were stalls that never happened.
  const listsAll = listsEveryHole(coveredSeconds, expectedSeconds);
  const joined = inWindow(joinedSpans(fed));
  const firstMedia = joined.length ? joined[0].start : Infinity;
  // Media came back after a hole (one shorter than a second is a join, not an interruption).
  const reconnects = joined.filter((span, i) => i > 0 && span.start - joined[i - 1].end >= 1000).length;
  let cursor = window.start;
  const gaps: Gap[] = [];
  const hole = (end: number) => {
    if (end > cursor && (listsAll || end - cursor >= MIN_LISTED_GAP_MS))
      gaps.push(gapOf(cursor, end, ledger, firstMedia, toIso));
  };
  for (const span of joined) {
    if (span.start > cursor) hole(span.start);
    cursor = Math.max(cursor, span.end);
  }
  // The last segment kept followed its stretch without a pause and was published after the window's end:
  // the stream was on the air to the end, so what the stretch leaves of the window is a stream slower than
  // real time, as between joined segments, not a hole. One that came back after a pause is no such proof.
  const last = ledger.last();
  const onAirToTheEnd = (last?.joined ?? false) && (last?.publishedAfter ?? -Infinity) >= window.end;
  hole(onAirToTheEnd ? cursor : Math.min(until, window.end));
  // What was fed to a run that its pieces do not hold is lost by us, whatever its length.
  for (const short of inWindow(shortfalls)) {
    gaps.push({
      start: toIso(short.start),
      end: toIso(short.end),
      cause: short.cause,
      reason: short.reason,
      content_lost_seconds: round((short.end - short.start) / 1000),
    });
  }
  gaps.sort((a, b) => Date.parse(a.start) - Date.parse(b.start));
  return { expectedSeconds, coveredSeconds, gaps, reconnects };
}

interface Span {
  start: number;
  end: number;
  joined: boolean;
}

/** Fed content a run's pieces do not hold. */
interface Shortfall extends Omit<HeldMedia, 'seconds'> {
  start: number;
  end: number;
}

/** The spans that joined segments make together, in time order. */
function joinedSpans(spans: Span[]): Span[] {
  const result: Span[] = [];
  for (const span of [...spans].sort((a, b) => a.start - b.start)) {
    const last = result.at(-1);
    if (last && (span.joined || span.start <= last.end)) last.end = Math.max(last.end, span.end);
    else result.push({ ...span });
  }
  return result;
}

/** Each kept segment's span as fed to its run, the part of it the run's pieces hold, and the fed parts they do not. */
function keptSpans(
  segments: readonly KeptSegment[],
  held: (run: number) => HeldMedia | null,
): { fed: Span[]; kept: Span[]; shortfalls: Shortfall[] } {
  const fedSeconds = new Map<number, number>();
  const fed: Span[] = [];
  const kept: Span[] = [];
  const shortfalls: Shortfall[] = [];
  for (const segment of segments) {
    const before = fedSeconds.get(segment.run) ?? 0;
    fedSeconds.set(segment.run, before + segment.seconds);
    const end = segment.start + segment.seconds * 1000;
    const joined = segment.joined ?? false;
    fed.push({ start: segment.start, end, joined });
    const pieces = held(segment.run);
    // Probed pieces are a few frames off the playlist's durations: a segment within half a second counts whole.
    const seconds =
      pieces === null || before + segment.seconds <= pieces.seconds + 0.5
        ? segment.seconds
        : Math.max(0, pieces.seconds - before);
    if (seconds > 0) kept.push({ start: segment.start, end: segment.start + seconds * 1000, joined });
    if (pieces === null || seconds === segment.seconds) continue;
    const from = segment.start + seconds * 1000;
    const last = shortfalls.at(-1);
    // The run's segments that follow one another make one shortfall, at the end of what its pieces hold.
    if (last && last.cause === pieces.cause && last.reason === pieces.reason && from <= last.end)
      last.end = Math.max(last.end, end);
    else shortfalls.push({ start: from, end, cause: pieces.cause, reason: pieces.reason });
  }
  return { fed, kept, shortfalls };
}

/** Causes under which all of a hole is content lost, whatever the playlists listed. */
const ALL_LOST: ReadonlySet<GapCause> = new Set([
  'recorder_down',
  'recorder_late',
  'recorder_overloaded',
  'server_down',
  'store_unreachable',
  'sequence_reset',
]);

/** A hole [start, end): the condition that overlaps it most, and the content lost in it. */
function gapOf(
  start: number,
  end: number,
  ledger: SegmentLedger,
  firstMedia: number,
  toIso: (ms: number) => string,
): Gap {
  const overlap = (s: number, e: number | null) => Math.min(end, e ?? Infinity) - Math.max(start, s);
  const condition = [...ledger.conditions]
    .filter((c) => overlap(c.start, c.end) > 0)
    .sort((a, b) => overlap(b.start, b.end) - overlap(a.start, a.end))[0];
  // With no condition, content the reader lost there (a segment it could not fetch) says why.
  const missed = ledger.lost
    .filter((l) => overlap(l.start, l.end) > 0)
    .sort((a, b) => overlap(b.start, b.end) - overlap(a.start, a.end))[0];
  const cause: GapCause =
    condition?.cause ?? (missed ? 'stream_dropped' : start < firstMedia ? 'not_live_yet' : 'stream_stalled');
  const reason =
    condition?.reason ??
    (missed
      ? `Stream dropped (${missed.reason})`
      : start < firstMedia
        ? 'Stream not live yet'
        : 'The stream published no new segment');
  const lost = ledger.lost.reduce((sum, l) => {
    const share = overlap(l.start, l.end) / Math.max(1, l.end - l.start);
    return share > 0 ? sum + l.seconds * Math.min(1, share) : sum;
  }, 0);
  // Content is lost only where the stream offered some: what it listed and we missed, or all of a span without a recorder.
  // An encoder that restarted was off the air for its pause while the programme went on: that is lost too.
  const content = ALL_LOST.has(cause) ? Math.max(lost, contentLostSeconds(cause, start, end)) : lost;
  return {
    start: toIso(start),
    end: toIso(end),
    cause,
    reason,
    content_lost_seconds: round(Math.min(content, (end - start) / 1000)),
  };
}

function round(seconds: number): number {
  return Math.round(seconds * 10) / 10;
}
