/*
 * The segment-level HLS reader: follows a live playlist and hands every segment, fetched once by its
 * media sequence number, to a sink in order. After any interruption (a drop, a stall, a crash of the
 * recorder) it first fetches what the playlist still lists of the missed range, then follows the live
 * edge; what the playlist no longer lists is counted as content lost. A sequence reset (an encoder
 * restarted in place) or a discontinuity is seen at the first playlist that shows it, with no
 * watchdog wait. A stream that is not live yet is polled every 2 s. Part of the recorder runtime: Node
 * and its siblings only.
 */
import type { EgressPin } from './egress-guard';
import { getBytes, PLAYLIST_MAX_BYTES, SEGMENT_MAX_BYTES, type HttpAnswer, type HttpFailure } from './hls-http';
import { programPauseMs, type KeptSegment, type SegmentLedger } from './hls-ledger';
import { chooseVariant, parsePlaylist, type MediaPlaylist, type MediaSegment } from './hls-playlist';
import type { Pause } from './recorder-window';

/** A segment the sink did not take because the recorder cannot keep up (recorder-hls.ts): why, with the figures. */
export interface LetGo {
  overloaded: string;
}

export interface SegmentSinkForHls {
  /**
   * Records one segment's bytes; `continuous`: it follows the previous one written without a break
   * (same numbering, no sequence missed, no discontinuity). Once it knows the run that will hold the
   * segment, and before ffmpeg is given a byte of it, it calls `kept(run)`, where the reader saves the
   * segment in its ledger: a crash between the two then leaves the ledger ahead of the recording (a
   * recorder started again trims it to the pieces), never behind it (the segment would be fetched again
   * and recorded twice). Returns the run that holds it, or why it let the segment go.
   */
  write(
    segment: MediaSegment,
    bytes: Uint8Array,
    continuous: boolean,
    kept: (run: number) => void,
  ): Promise<number | LetGo>;
}

export interface HlsReaderOptions {
  url: string;
  /** The egress guard every request (and redirect) is checked by. */
  pin: EgressPin;
  /** Frame height the recording is made at: the variant chosen from a multivariant playlist. */
  height: number;
  window: { start: number; end: number };
  ledger: SegmentLedger;
  sink: SegmentSinkForHls;
  pause: Pause;
  stopped(): boolean;
  log(line: string): void;
  /** Called after each playlist reading (to save progress). */
  progressed(): void;
  /** Saves the ledger: called for each segment before ffmpeg gets it, so a crash cannot make it fetched twice. */
  persist(): void;
  now?: () => number;
  /** Wait between tries of a stream that is not on the air (2 s). */
  offAirPollMs?: number;
  /** The longest a live stream may publish no new segment before it counts as stalled (three target durations, at least 6 s, if shorter). */
  stallMs?: number;
  /**
   * Set for a recorder continuing a recording whose recorder was lost with its server: the media
   * sequence that one kept last, or null when it is not known. Until it keeps a segment, the reader goes
   * on from the next one still listed (those that left the playlist are content lost), or from the live
   * edge: what the playlist lists before it was the lost recorder's.
   */
  continuesAfter?: number | null;
}

/** Where a segment's content lies, whether it joins and follows the one before, and whether a reading placed it (KeptSegment.estimated). */
interface Placement {
  start: number;
  joined: boolean;
  follows: boolean;
  estimated: boolean;
}

/** What ended the reading: the window or a stop (null), or why these playlists need ffmpeg instead. */
export type HlsReadEnd = { unsupported: string } | null;

const PLAYLIST_TIMEOUT_MS = 8000;
/** How often the log says how far the recording has come (the logs viewer shows a capture live). */
const PROGRESS_LOG_MS = 10_000;
const TROUBLE_WORDS = {
  stream_refused: 'Stream refused',
  stream_stalled: 'Stream stalled',
  stream_dropped: 'Stream dropped',
  not_live_yet: 'Stream not live yet',
} as const;
/** An answer slower than this came from a server that held the request. */
const HELD_MS = 2000;
/** The oldest listed segments a continuing recorder skips when its next segment left the list. */
const RESUME_MARGIN_SEGMENTS = 2;
/**
 * Held this many target durations by our own sink (a run closing waits for its queue to reach a slow
 * ffmpeg), the reader's lateness is ours: a stream lists a segment for at least three target durations
 * (RFC 8216 6.2.2), and a reader not held takes it within one reload.
 */
const HELD_BY_US_TARGETS = 2;
/** A reading that proves the segments kept lie less than this earlier than placed moves nothing (a change of the ledger each). */
const PLACEMENT_STEP_MS = 100;

/**
 * Nine sixteenths of the target duration between reloads: a reset or a drop is seen within a segment,
 * and never sooner than the half that RFC 8216 6.3.4 asks after an unchanged playlist. Not half exactly:
 * readings at half the pace of a stream's segments met each publication at the same moment after it, so
 * a stretch placed from a first reading that came late stayed that late (boundLastKept only moves it
 * earlier on a reading soon after a publication), up to a reload. Off the pace by an eighth, the readings
 * sweep the interval: within eight of them one comes within an eighth of a reload of a publication.
 */
function reloadMsOf(playlist: MediaPlaylist): number {
  return Math.max(500, playlist.targetDuration * 500) * (9 / 8);
}

/** How late a segment may be read after its predecessor and still be placed right after it: our reads' jitter. */
function jitterMsOf(segment: MediaSegment): number {
  return Math.max(1000, segment.duration * 500);
}

export async function readHls(options: HlsReaderOptions): Promise<HlsReadEnd> {
  const now = options.now ?? Date.now;
  const { ledger, window } = options;
  const offAirPollMs = options.offAirPollMs ?? 2000;
  let mediaUrl = options.url;
  let lastNewSegmentAt = now();
  /** Durations the playlists listed, by sequence: what a missed number held. */
  const listed = new Map<number, number>();
  let previous: MediaPlaylist | null = null;
  /** When the previous reading was asked for: a segment it did not list was published after that. */
  let previousAskedAt = -Infinity;
  let lastProgressLogAt = now();
  let breakNext = false;
  /** A continuing reader's place until it keeps a segment: the sequence it goes on after (null: the live edge). */
  let continuingAfter = options.continuesAfter;
  /** A segment answered 404 once: the playlist is read again at once, and a second 404 loses it. */
  let goneOnce: number | null = null;
  /** The reading was left for a fresh one (a segment left the playlist before it was fetched). */
  let readAgain: boolean;
  /**
   * The last segment the sink let go, when nothing was kept after it: the next one is placed after it
   * (the stream did not pause there, we did), and the span of those let go is the hole.
   */
  let letGo: KeptSegment | null = null;
  /** How long the sink held the reader up since the segments were last checked for any that left the playlist. */
  let heldBySinkMs = 0;

  // The last seconds of the window are published a segment later: the reader waits for them (up to two
  // target durations, a reload and a few seconds past the end). Where a segment lies is estimated from
  // when we first see it listed, and a busy recorder sees it late: the first reading of a capture
  // places everything up to a target duration late, and the window's last frames were lost when the
  // reader stopped on that estimate. So it goes on until it holds a segment that a reading asked for
  // after the window's end did not list yet: one published after the end, whose content reaches past
  // it. A little media after the window costs nothing.
  let tailMs = 0;
  let endMarginMs = 0;
  /** The last kept segment was published after this (-Infinity: no reading says). */
  const keptPublishedAfter = () => ledger.last()?.publishedAfter ?? -Infinity;
  const keptUntil = () => (ledger.last()?.start ?? -Infinity) + (ledger.last()?.seconds ?? 0) * 1000;
  // Without a reading that bounds it (the segments a recorder finds listed at its start), the estimate with a margin decides.
  const heldPastEnd = () =>
    keptPublishedAfter() >= window.end ||
    (keptPublishedAfter() === -Infinity && keptUntil() >= window.end + endMarginMs);
  const windowOpen = () => now() < window.end || (now() < window.end + tailMs && !heldPastEnd());
  /** A wait that ends with the window (and its tail) or a stop. */
  const nap = (ms: number) =>
    options.pause.for(Math.max(0, Math.min(ms, (now() < window.end ? window.end : window.end + tailMs) - now())));
  while (!options.stopped() && windowOpen()) {
    readAgain = false;
    const askedAt = now();
    const answer = await getBytes(mediaUrl, PLAYLIST_TIMEOUT_MS, options.pin, PLAYLIST_MAX_BYTES);
    // The live edge the playlist shows: as of the middle of a quick exchange (a busy server may answer late
    // with what it wrote when asked), as of its answer for a server that held the request and answered with a newer one.
    const answeredAt = now();
    const fetchedAt = answeredAt - askedAt < HELD_MS ? (askedAt + answeredAt) / 2 : answeredAt;
    if (options.stopped()) break;
    if ('error' in answer) {
      trouble(answer, askedAt);
      options.progressed();
      await nap(ledger.kept.length ? 1000 : offAirPollMs);
      continue;
    }
    let playlist;
    try {
      playlist = parsePlaylist(new TextDecoder().decode(answer.bytes), answer.url);
    } catch (error) {
      trouble({ error: `${(error as Error).message}`, cause: 'stream_dropped', status: null }, fetchedAt);
      await nap(offAirPollMs);
      continue;
    }
    if (playlist.kind === 'multivariant') {
      mediaUrl = chooseVariant(playlist.variants, options.height).uri;
      options.log(`multivariant playlist: recording the variant ${mediaUrl.slice(0, 200)}`);
      continue;
    }
    if (playlist.unsupported) return { unsupported: playlist.unsupported };
    endMarginMs = reloadMsOf(playlist) + 500;
    tailMs = 2 * playlist.targetDuration * 1000 + endMarginMs + 3000;

    const fresh = await takeNew(playlist, fetchedAt);
    boundLastKept(playlist, answeredAt);
    if (fresh > 0) lastNewSegmentAt = now();
    if (fresh > 0 && now() - lastProgressLogAt >= PROGRESS_LOG_MS) {
      lastProgressLogAt = now();
      options.log(progressLine());
    } else if (ledger.kept.length && ledger.openCondition()?.cause !== 'stream_stalled') {
      const stallMs = stallMsFor(playlist);
      if (now() - lastNewSegmentAt > stallMs) {
        const reason = `Stream stalled (no new segment for ${Math.round(stallMs / 1000)} s)`;
        options.log(`${reason}; still reading its playlist`);
        ledger.meet('stream_stalled', reason, lastNewSegmentAt);
      }
    }
    if (playlist.ended && fresh === 0)
      ledger.meet(
        ledger.kept.length ? 'stream_dropped' : 'not_live_yet',
        'Stream ended (the playlist says the broadcast is over)',
        now(),
      );
    previous = playlist;
    previousAskedAt = askedAt;
    options.progressed();
    if (!readAgain) await nap(playlist.ended ? offAirPollMs : reloadMsOf(playlist));
  }
  return null;

  function trouble(answer: HttpFailure, at: number): void {
    const live = ledger.kept.length > 0;
    // A refused address is refused whether or not the stream was live; other troubles before any media mean it is not live yet.
    const cause = answer.cause === 'stream_refused' || live ? answer.cause : 'not_live_yet';
    const reason = `${TROUBLE_WORDS[cause]} (${answer.error})`;
    const open = ledger.openCondition();
    if (open?.reason !== reason) options.log(reason);
    // A trouble of a live stream began where its segments stopped coming (within a reload of the last),
    // unless the reader was already in another condition (a stall): then it began when it was met. Put
    // back to the last new segment, it took the stall's span, and a stream that stalled for a minute
    // before its playlist went away read as dropped all along, under a stall alarm that said it stalled.
    ledger.meet(cause, reason, live && !open ? Math.min(at, lastNewSegmentAt + 1000) : at);
  }

  /** Fetches and writes the segments this playlist lists that the recording lacks; how many it took. */
  async function takeNew(playlist: MediaPlaylist, fetchedAt: number): Promise<number> {
    for (const s of playlist.segments) listed.set(s.sequence, s.duration);
    const segments = playlist.segments;
    if (segments.length === 0) return 0;
    // Where each segment lies: the newest one has just been published, the others before it in turn.
    const endOf = new Map<number, number>();
    let after = 0;
    for (const s of [...segments].reverse()) {
      endOf.set(s.sequence, fetchedAt - after * 1000);
      after += s.duration;
    }
    const resuming = ledger.kept.length === 0 && continuingAfter !== undefined;
    // Segments let go are done with: they are not fetched again.
    let last =
      letGo?.epoch === ledger.epoch
        ? letGo.sequence
        : (ledger.lastSequence() ?? (resuming ? (continuingAfter ?? null) : null));
    if (last !== null && isReset(playlist, last)) {
      options.log(
        `media sequence went from ${last} back to ${segments[0].sequence}: the encoder restarted; recording its new numbering`,
      );
      ledger.meet(
        'sequence_reset',
        `The stream's encoder restarted (media sequence ${last} -> ${segments[0].sequence})`,
        now(),
      );
      ledger.newEpoch();
      listed.clear();
      for (const s of segments) listed.set(s.sequence, s.duration);
      last = null;
      // A new numbering is content the lost recorder never listed: all of it is this one's to take.
      continuingAfter = undefined;
      breakNext = true;
    }
    const estimatedStart = (s: MediaSegment) => (endOf.get(s.sequence) as number) - s.duration * 1000;
    // A segment the previous reading did not list was published after it was asked for.
    const listedBefore = new Set(previous?.segments.map((s) => s.sequence));
    const publishedAfter = (s: MediaSegment) =>
      previous && !listedBefore.has(s.sequence) ? previousAskedAt : -Infinity;
    // Past the window's end: provably, or by the estimate with a margin when no reading bounds it.
    const afterWindow = (s: MediaSegment, start: number) =>
      publishedAfter(s) === -Infinity
        ? start >= window.end + endMarginMs
        : publishedAfter(s) - s.duration * 1000 >= window.end;
    // A candidate for the window's end: its placement (below) may put it up to a jitter earlier than estimated.
    const mayStartInWindow = (s: MediaSegment) => !afterWindow(s, estimatedStart(s) - jitterMsOf(s));
    // A first reading also takes the segment before the window's first: where a segment lies is known to
    // within our read's latency, and a little media before the window costs nothing.
    const firstWanted = segments.findIndex((s) => (endOf.get(s.sequence) as number) > window.start);
    // A recorder continuing one whose place is unknown starts at the live edge.
    const fromLiveEdge = last === null && resuming && continuingAfter === null;
    const wanted = segments.filter(
      (s, i) =>
        (last !== null
          ? s.sequence > last
          : fromLiveEdge
            ? i === segments.length - 1
            : firstWanted >= 0 && i >= firstWanted - 1) && mayStartInWindow(s),
    );
    if (wanted.length === 0) return 0;
    // Continuing a lost recorder whose next segment left the list: the oldest listed are the next to go,
    // and a busy machine fetching them one by one sees the ones after them leave too, a second hole for
    // the one outage. Starting a little inside the list keeps it one (bare ffmpeg starts 3 from the end).
    if (resuming && last !== null && wanted[0].sequence > last + 1 && wanted[0].sequence === segments[0].sequence)
      wanted.splice(0, Math.min(RESUME_MARGIN_SEGMENTS, wanted.length - 1));
    if (last !== null && wanted[0].sequence > last + 1) {
      missed(last + 1, wanted[0].sequence - 1, estimatedStart(wanted[0]), playlist);
      if (continuingAfter !== undefined) continuingAfter = wanted[0].sequence - 1;
    }
    heldBySinkMs = 0;

    let taken = 0;
    for (const segment of wanted) {
      if (options.stopped() || !windowOpen()) break;
      // Whether a segment is the window's is decided where the ledger places it, so the coverage that
      // counts the window's last seconds and the choice of what to fetch for them cannot disagree.
      const { start, joined, follows, estimated } = placement(
        segment,
        estimatedStart(segment),
        publishedAfter(segment),
        playlist,
      );
      if (afterWindow(segment, start)) break;
      const answer = await fetchSegment(segment);
      if ('error' in answer && answer.status === 404 && goneOnce !== segment.sequence) {
        // Behind the playlist: the segment left it between the reading and the fetch, and so will those
        // listed after it. A fresh reading goes on from the oldest still listed; what left is lost once
        // (missed), with one break, not a 404 and a new ffmpeg run for each. Still listed, it is tried once more.
        goneOnce = segment.sequence;
        readAgain = true;
        break;
      }
      if ('error' in answer) {
        if (continuingAfter !== undefined) continuingAfter = segment.sequence;
        ledger.loseContent({
          start,
          end: start + segment.duration * 1000,
          seconds: segment.duration,
          reason: `segment ${segment.sequence}: ${answer.error}`,
        });
        if (answer.cause === 'stream_refused')
          ledger.meet('stream_refused', `Stream refused (segment ${segment.sequence}: ${answer.error})`, start);
        options.log(`segment ${segment.sequence} could not be fetched (${answer.error}): ${segment.duration} s lost`);
        breakNext = true;
        continue;
      }
      const continuous = !breakNext && follows && !segment.discontinuity;
      const writing = now();
      const run = await options.sink.write(segment, answer.bytes, continuous, (run) => {
        ledger.keep({
          sequence: segment.sequence,
          seconds: segment.duration,
          start,
          run,
          joined,
          ...(estimated ? { estimated } : {}),
          ...(segment.programTime === null ? {} : { programTime: segment.programTime }),
          ...(publishedAfter(segment) === -Infinity ? {} : { publishedAfter: publishedAfter(segment) }),
        });
        options.persist();
      });
      heldBySinkMs += now() - writing;
      breakNext = false;
      if (typeof run !== 'number') {
        overloaded(segment, start, run.overloaded);
        taken++;
        continue;
      }
      letGo = null;
      ledger.clear(start);
      taken++;
    }
    return taken;
  }

  /**
   * Where a segment's content was on the air: right after its predecessor, or later when the stream
   * published it clearly later (it runs slow, or paused). Clearly later is decided by what the readings
   * prove, not by when we happened to see it: a segment the previous reading did not list was published
   * after that reading was asked for, so it goes after its predecessor only when that moment is more than
   * the jitter (half a segment, at least 1 s) past where the predecessor ends. A recorder slowed by a busy
   * machine sees segments late; placed on that, a stream that never paused showed holes (a recording
   * "partial" with no gap said). Segments no reading bounds (those listed at a recorder's start) go by
   * the estimate. A lateness shorter than a stall is the stream's pace, not a hole.
   */
  function placement(
    segment: MediaSegment,
    estimated: number,
    publishedAfter: number,
    playlist: MediaPlaylist,
  ): Placement {
    if (!letGo) return placeAfter(ledger.last(), segment, estimated, publishedAfter, playlist);
    // After segments let go, by the same rule after the last of them; their span is our hole, which
    // nothing joins across.
    return { ...placeAfter(letGo, segment, estimated, publishedAfter, playlist), joined: false };
  }

  function placeAfter(
    previousKept: KeptSegment | undefined,
    segment: MediaSegment,
    estimated: number,
    publishedAfter: number,
    playlist: MediaPlaylist,
  ): Placement {
    const follows = previousKept?.epoch === ledger.epoch && previousKept.sequence === segment.sequence - 1;
    // The first segment of a new numbering (an encoder restarted in place) goes by the same rule: right
    // after the last one kept unless the readings prove a pause. Placed by the estimate instead, it sat up
    // to a segment late, and a stream that lost nothing showed a 1 s "stall" at the reset.
    const firstAfterReset =
      previousKept !== undefined && previousKept.epoch !== ledger.epoch && ledger.lastSequence() === null;
    if (!previousKept || !(follows || firstAfterReset))
      return { start: estimated, joined: false, follows: false, estimated: true };
    const chained = previousKept.start + previousKept.seconds * 1000;
    // The stream's own clock, where it says, places it better than any reading: after its predecessor,
    // by the pause between them.
    const pause = programPauseMs(previousKept, segment.programTime);
    if (pause !== null) {
      const start = pause < jitterMsOf(segment) ? chained : chained + pause;
      return {
        start,
        joined: follows ? start - chained < stallMsFor(playlist) : start === chained,
        follows,
        estimated: false,
      };
    }
    const provenStart = publishedAfter - segment.duration * 1000;
    // The bound from the reading before holds only if that playlist was fresh: one that lagged (a stale
    // CDN edge) and then caught up lists more content than time passed, and the count back from the
    // newest segment is then the tighter bound. The segments it made late are the stream's own, in turn.
    const later = publishedAfter === -Infinity ? estimated : Math.min(estimated, provenStart);
    const start = later - chained < jitterMsOf(segment) ? chained : later;
    // Across a reset only a seamless start joins: a pause there is the restart's own gap (sequence_reset).
    return {
      start,
      joined: follows ? start - chained < stallMsFor(playlist) : start === chained,
      follows,
      estimated: start !== chained,
    };
  }

  /**
   * A playlist lists only segments published by the time it was answered, and a live segment is
   * published once its content has been on the air: the last segment kept, listed in it, ended no later
   * than the answer, less the durations listed after it. Placed later than that (its stretch counted
   * back from a newest segment taken as just published: up to a segment late, after a drop or at the
   * capture's start), its stretch moves earlier. Readings a moment after a publication bring it to
   * within a fraction of a second of where it was on the air.
   */
  function boundLastKept(playlist: MediaPlaylist, answeredAt: number): void {
    const last = ledger.last();
    if (!last || letGo || last.epoch !== ledger.epoch) return;
    const at = playlist.segments.findIndex((s) => s.sequence === last.sequence);
    if (at < 0) return;
    const listedAfterMs = playlist.segments.slice(at + 1).reduce((sum, s) => sum + s.duration * 1000, 0);
    const excess = last.start + last.seconds * 1000 - (answeredAt - listedAfterMs);
    if (excess >= PLACEMENT_STEP_MS) ledger.placeEarlier(excess);
  }

  /** "recorded up to segment 134: 268 s kept, 0 s lost" */
  function progressLine(): string {
    const kept = ledger.kept.reduce((sum, k) => sum + k.seconds, 0);
    const lost = ledger.lost.reduce((sum, l) => sum + l.seconds, 0);
    return `recorded up to segment ${ledger.last()?.sequence ?? '-'}: ${kept.toFixed(0)} s kept, ${lost.toFixed(0)} s lost`;
  }

  /** No new segment for this long is a stall: three target durations (at least 6 s), or the recorder's stall timeout if shorter. */
  function stallMsFor(playlist: MediaPlaylist): number {
    return Math.min(options.stallMs ?? Infinity, Math.max(3 * playlist.targetDuration * 1000, 6000));
  }

  /**
   * The numbering started again: the newest segment is older than the last kept, or a new discontinuity
   * came with numbers at or below the last kept while that segment is no longer listed.
   */
  function isReset(playlist: MediaPlaylist, last: number): boolean {
    const { segments } = playlist;
    if (segments.at(-1)!.sequence < last) return true;
    const newDiscontinuity = previous !== null && playlist.discontinuitySequence > previous.discontinuitySequence;
    return newDiscontinuity && segments[0].sequence <= last && !segments.some((s) => s.sequence === last);
  }

  /**
   * The sink let a segment go (ffmpeg is too far behind; the sink's log says when it starts and stops):
   * its content is lost by us, under one `recorder_overloaded` condition for the episode, which the next
   * segment kept ends.
   */
  function overloaded(segment: MediaSegment, start: number, reason: string): void {
    ledger.loseContent({
      start,
      end: start + segment.duration * 1000,
      seconds: segment.duration,
      reason: `segment ${segment.sequence} let go: ${reason}`,
    });
    ledger.meet('recorder_overloaded', reason, start);
    letGo = { epoch: ledger.epoch, sequence: segment.sequence, seconds: segment.duration, start, run: 0 };
    options.persist();
  }

  /**
   * Sequence numbers the playlist moved past before they could be fetched: their content is lost. When our
   * own sink held the reader up meanwhile, the loss is ours (`recorder_overloaded`, ended by the next
   * segment kept), not the stream's.
   */
  function missed(from: number, to: number, before: number, playlist: MediaPlaylist): void {
    let seconds = 0;
    for (let sequence = from; sequence <= to; sequence++) seconds += listed.get(sequence) ?? playlist.targetDuration;
    const start = before - seconds * 1000;
    ledger.loseContent({
      start,
      end: before,
      seconds,
      reason: `segments ${from}-${to} left the playlist before they could be fetched`,
    });
    options.log(`segments ${from}-${to} left the playlist before they could be fetched: ${seconds.toFixed(1)} s lost`);
    if (heldBySinkMs >= HELD_BY_US_TARGETS * playlist.targetDuration * 1000)
      ledger.meet(
        'recorder_overloaded',
        `Recorder overloaded: segments ${from}-${to} left the playlist while it waited ${Math.round(heldBySinkMs / 1000)} s for ffmpeg to take what it had queued`,
        start,
      );
    breakNext = true;
  }

  async function fetchSegment(segment: MediaSegment): Promise<HttpAnswer> {
    const timeoutMs = Math.max(10_000, segment.duration * 3000);
    let answer = await getBytes(segment.uri, timeoutMs, options.pin, SEGMENT_MAX_BYTES);
    // One quick second try: a segment fetch that failed once (a reset connection) usually works at once.
    if ('error' in answer && answer.status !== 404 && answer.cause !== 'stream_refused' && !options.stopped())
      answer = await getBytes(segment.uri, timeoutMs, options.pin, SEGMENT_MAX_BYTES);
    return answer;
  }
}
