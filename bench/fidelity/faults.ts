import type { GapCause } from '../../contract/instances';
import type { ContentCondition } from '../../recorder/protocol';
import type { FidelityOriginOptions, OriginFault } from '../../testkit/fidelity-origin';
import type { RadioDrop } from '../../testkit/fidelity-radio';
import type { RtmpDrop } from '../../testkit/fidelity-rtmp';
import { SEGMENT_SECONDS, type NumberedContentFault } from '../../testkit/numbered-stream';
import type { Random } from '../simulate/random';

/** The season's own fault: the recorder process SIGKILLed `at` seconds after its stream's start; its server starts it again. */
export interface RecorderKill {
  kind: 'recorder_kill';
  at: number;
}

/**
 * The season's other fault of our own: a recording whose source does not fit its configuration (so its
 * recorder transcodes), its ffmpeg held in a cgroup at `cpuPercent` of one CPU from `at` seconds after its
 * stream's start for `seconds`, then let go; the stream itself never fails.
 */
export interface RecorderStarved {
  kind: 'recorder_starved';
  at: number;
  seconds: number;
  cpuPercent: number;
}

/** The faults the season does to a recorder rather than to its stream. */
export type RecorderFault = RecorderKill | RecorderStarved;

/** Every fault a season draws: the HLS origin's, the radio mount's and the RTMP origin's drops, and the recorder's death or starvation. */
export type LabFault = OriginFault | RadioDrop | RtmpDrop | RecorderFault;
export type LabFaultKind = LabFault['kind'];

/** The cause a recording's gap should name for the hole each fault makes; the others make none. */
export const EXPECTED_CAUSE: Partial<Record<LabFaultKind, GapCause>> = {
  late_start: 'not_live_yet',
  playlist_404: 'stream_dropped',
  held_open: 'stream_stalled',
  encoder_restart: 'sequence_reset',
  // A playlist that lagged hides the new segments: on a list too short to catch up, the reader saw a stall.
  stale_playlist: 'stream_stalled',
  radio_drop: 'stream_dropped',
  rtmp_drop: 'stream_dropped',
  recorder_kill: 'recorder_down',
  recorder_starved: 'recorder_overloaded',
};

/**
 * The faults a season draws: every kind (the HLS origin's, the radio mount's and the RTMP origin's
 * drops, the recorder's SIGKILL and its starved transcode), and an encoder restart after a short and
 * after a long pause (a new numbering either way, with the pause's seconds missing). Each appears once
 * in a season of as many recordings; the restart without a pause (no gap at all) comes after them.
 */
interface Variant {
  kind: LabFaultKind;
  /** An encoder restart's pause, seconds. */
  pause?: number;
}
const VARIANTS: readonly Variant[] = [
  { kind: 'late_start' },
  { kind: 'playlist_404' },
  { kind: 'held_open' },
  { kind: 'encoder_restart', pause: 4 },
  { kind: 'encoder_restart', pause: 20 },
  { kind: 'slow_origin' },
  { kind: 'segment_expiry' },
  { kind: 'stale_playlist' },
  { kind: 'radio_drop' },
  { kind: 'rtmp_drop' },
  { kind: 'recorder_kill' },
  { kind: 'recorder_starved' },
];
const AFTER_EVERY_VARIANT: Variant = { kind: 'encoder_restart', pause: 0 };

/**
 * The content faults a season draws (the programme's sound muted or its picture frozen for a while, or no
 * sound track at all), each once, on the recordings of the variants whose own fault leaves the content
 * after it alone: a late start (over before the content fault starts), a slow origin and expiring
 * segments (no hole). So a season of every variant draws every content kind with no recording more, and
 * the other recordings are the clean streams that must raise no content alarm.
 */
const CONTENT_FAULTS: readonly NumberedContentFault['fault'][] = ['silent', 'frozen', 'no_audio'];
const CONTENT_CARRIERS: ReadonlySet<LabFaultKind> = new Set(['late_start', 'slow_origin', 'segment_expiry']);

/** The content alarm each content fault should raise, once, and see resolved. */
export const CONTENT_ALARM: Record<NumberedContentFault['fault'], ContentCondition> = {
  silent: 'audio_silent',
  frozen: 'picture_frozen',
  no_audio: 'audio_missing',
};

/** Playlists a mosque's stream may have: a short sliding list, a DVR window of 120 s, or an EVENT list. */
const DVR_PLAYLIST: Pick<FidelityOriginOptions, 'dvrSegments' | 'playlistType'> = {
  playlistType: 'sliding',
  dvrSegments: 60,
};
const PLAYLISTS: readonly Pick<FidelityOriginOptions, 'dvrSegments' | 'playlistType'>[] = [
  { playlistType: 'sliding', dvrSegments: 6 },
  DVR_PLAYLIST,
  { playlistType: 'event' },
];

/** A stream that is on the air when the recording starts has been for this long (segments already published). */
const ON_AIR_BEFORE_SEGMENTS = 10;
/** The radio is on the air this long before its recording is launched (its listeners get a burst of the last 2 s). */
export const RADIO_ON_AIR_SECONDS = 3;
/** The radio is off the air this long (a third of a shorter window). */
const RADIO_DROP_SECONDS = 20;

/** An RTMP origin's drop (a third of a shorter window at most): nothing listens, as a publisher gone. */
const RTMP_DROP_SECONDS = { min: 10, max: 20 };

/**
 * The starved ffmpeg's share of one CPU: its 320x180 to 640x360 transcode needs 12 to 14% of one to keep
 * up on the project's 2-core machine, so 4% holds it near 0.3x real time (0.26x to 0.41x in
 * tests/faults/recorder-overload.test.ts), and its backlog passes the season's bound
 * (RECORDER_OVERLOAD_SECONDS) inside the starvation.
 */
export const STARVED_CPU_PERCENT = 4;

/** A live HLS origin with its fault (the recorder's death or starvation is done by the season), or the radio or RTMP origin with its drop. */
export type PlannedStream =
  | { source: 'hls'; fault: OriginFault | RecorderFault; origin: Omit<FidelityOriginOptions, 'minutes'> }
  | { source: 'radio'; fault: RadioDrop }
  | { source: 'rtmp'; fault: RtmpDrop };

/**
 * The faults of a season's recordings: every variant in turn (in a seeded order, then the restart
 * without a pause), each timed inside a window of `windowSeconds` by the seed, on a playlist drawn by
 * the seed, with a content fault on each carrier of one. A late start is a stream not on the air at
 * launch; the others have been on the air for 20 s.
 */
export function planStreams(random: Random, count: number, windowSeconds: number): PlannedStream[] {
  // A seeded order of the variants, so a small season still sees different ones.
  const variants = [...shuffled(random, VARIANTS), AFTER_EVERY_VARIANT];
  const contentFaults = shuffled(random, CONTENT_FAULTS);
  let carried = 0;
  return Array.from({ length: count }, (_, i): PlannedStream => {
    const { kind, pause } = variants[i % variants.length];
    if (kind === 'radio_drop') {
      const at = RADIO_ON_AIR_SECONDS + windowSeconds * random.between(0.2, 0.4);
      return { source: 'radio', fault: { kind, at, seconds: Math.min(RADIO_DROP_SECONDS, windowSeconds / 3) } };
    }
    if (kind === 'rtmp_drop') {
      // The RTMP origin starts a moment before its recording is launched.
      const at = 1 + windowSeconds * random.between(0.2, 0.4);
      const seconds = Math.min(random.between(RTMP_DROP_SECONDS.min, RTMP_DROP_SECONDS.max), windowSeconds / 3);
      return { source: 'rtmp', fault: { kind, at, seconds } };
    }
    const prePublishSegments = kind === 'late_start' ? 0 : ON_AIR_BEFORE_SEGMENTS;
    // Faults are timed from the broadcast's start; the recording starts when the origin does, that much later.
    const launch = prePublishSegments * SEGMENT_SECONDS;
    const inWindow = (from: number, to: number) => launch + windowSeconds * random.between(from, to);
    const fault = ((): OriginFault | RecorderFault => {
      switch (kind) {
        case 'late_start':
          return { kind, at: inWindow(0.1, 0.3) };
        case 'playlist_404':
          return { kind, at: inWindow(0.2, 0.4), seconds: Math.min(random.between(10, 40), windowSeconds / 3) };
        case 'held_open':
          return { kind, at: inWindow(0.2, 0.4), seconds: Math.min(random.between(20, 70), windowSeconds / 2) };
        case 'encoder_restart':
          // On a segment boundary (a restarted encoder starts a segment of its own), after no pause or a short or long one.
          return { kind, at: Math.round(inWindow(0.3, 0.6) / SEGMENT_SECONDS) * SEGMENT_SECONDS, pause };
        case 'stale_playlist':
          return { kind, at: inWindow(0.2, 0.4), seconds: Math.min(random.between(20, 70), windowSeconds / 2) };
        case 'slow_origin':
          return { kind, at: inWindow(0.1, 0.1), seconds: windowSeconds / 2 };
        case 'segment_expiry':
          return { kind, at: 0, seconds: launch + windowSeconds * 2 };
        case 'recorder_kill':
          return { kind, at: inWindow(0.3, 0.6) };
        case 'recorder_starved':
          // Half the window, from a fifth to three tenths of it on (clear of a recorder that started late): a
          // fifth of it or more is left to work off the backlog in.
          return { kind, at: inWindow(0.2, 0.3), seconds: windowSeconds / 2, cpuPercent: STARVED_CPU_PERCENT };
      }
    })();
    const faults = fault.kind === 'recorder_kill' || fault.kind === 'recorder_starved' ? [] : [fault];
    const drawn = random.pick(PLAYLISTS);
    // A frozen playlist is drawn as the DVR case: a list long enough to catch up from (the draw
    // is still made, so the rest of the season stays the seed's).
    const origin = { ...(kind === 'stale_playlist' ? DVR_PLAYLIST : drawn), prePublishSegments, faults };
    if (!CONTENT_CARRIERS.has(kind)) return { source: 'hls', fault, origin };
    // In programme seconds: after the launch by a fifth of the window (a late start or a slow origin moves it
    // later on the air, at most 0.3 of the window), long enough to be alarmed, ended before the window is.
    const from = Math.round(launch + windowSeconds * random.between(0.2, 0.25));
    const to = from + Math.round(Math.min(random.between(20, 40), windowSeconds / 3));
    const content = { fault: contentFaults[carried++ % contentFaults.length], from, to };
    return { source: 'hls', fault, origin: { ...origin, content } };
  });
}

/** Fisher-Yates: the items in an order drawn by the seed. */
function shuffled<T>(random: Random, items: readonly T[]): T[] {
  const order = [...items];
  for (let i = order.length - 1; i > 0; i--) {
    const j = random.int(0, i);
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}
