/*
 * Seconds of media in an MPEG-TS piece, read from its own timestamps in this process: for a piece no
 * segment list names (the one a killed ffmpeg was writing, or pieces fetched back from the store), so
 * that measuring it never costs an ffprobe process. Part of the recorder runtime: no imports at all
 * (mpegts-codecs.ts reads the same packets).
 */

export const PACKET = 188;
const SYNC = 0x47;
/** PES timestamps count a 90 kHz clock on 33 bits. */
const CLOCK = 90_000;
const WRAP = 2 ** 33;

/** What one elementary stream of the piece holds. */
interface Stream {
  video: boolean;
  /** Its PES timestamps, unwrapped. */
  times: number[];
  /** Audio: the payload of its last PES so far, which holds several frames, counted at the end. */
  last: Uint8Array[];
}

/**
 * Measured as ffprobe measures a file's duration: from the earliest first timestamp of any stream to
 * the latest end of one. A video stream ends one frame (its common step) after its last timestamp; an
 * audio stream, which the muxer packs several frames to a PES, ends after the frames of its last PES
 * (ADTS AAC, counted) or one common step; audio counts only in a piece without video, where ffprobe's
 * end is the video's too (a piece is cut on a video key frame). Null when it holds no timestamped media.
 */
export function mpegTsSeconds(bytes: Uint8Array): number | null {
  const streams = new Map<number, Stream>();
  let first: number | null = null;
  for (let at = syncOffset(bytes); at + PACKET <= bytes.length; at += PACKET) {
    if (bytes[at] !== SYNC) break; // lost sync: a piece cut short mid-write ends here
    const pid = ((bytes[at + 1] & 0x1f) << 8) | bytes[at + 2];
    const payload = payloadOffset(bytes, at);
    const found = payload === null ? null : presentationTime(bytes, at, payload);
    const stream = streams.get(pid);
    if (!found) {
      if (stream && !stream.video && payload !== null && !(bytes[at + 1] & 0x40))
        stream.last.push(bytes.subarray(payload, at + PACKET));
      continue;
    }
    first ??= found.pts;
    // Unwrapped against the first timestamp: a piece never spans half the 26.5 h cycle.
    const pts = found.pts + (found.pts - first < -WRAP / 2 ? WRAP : found.pts - first > WRAP / 2 ? -WRAP : 0);
    const entry = stream ?? { video: found.video, times: [], last: [] };
    entry.times.push(pts);
    if (!entry.video) entry.last = [bytes.subarray(found.data, at + PACKET)];
    streams.set(pid, entry);
  }
  const media = [...streams.values()];
  const ending = media.some((s) => s.video) ? media.filter((s) => s.video) : media;
  let start = Infinity;
  for (const stream of media) start = Math.min(start, ...stream.times);
  let end = -Infinity;
  for (const stream of ending) {
    const sorted = [...stream.times].sort((a, b) => a - b);
    const lastDuration = (!stream.video && adtsTicks(Buffer.concat(stream.last))) || commonStep(sorted);
    end = Math.max(end, (sorted.at(-1) as number) + lastDuration);
  }
  const seconds = (end - start) / CLOCK;
  return Number.isFinite(seconds) && seconds > 0 ? seconds : null;
}

/** Where the packets start: the first offset with a sync byte at it and at the next packet. */
export function syncOffset(bytes: Uint8Array): number {
  for (let at = 0; at < PACKET && at < bytes.length; at++)
    if (bytes[at] === SYNC && (at + PACKET >= bytes.length || bytes[at + PACKET] === SYNC)) return at;
  return bytes.length;
}

/** Where the payload of the TS packet at `at` starts; null when it carries none. */
export function payloadOffset(bytes: Uint8Array, at: number): number | null {
  const control = (bytes[at + 3] >> 4) & 0x3;
  if (!(control & 0x1)) return null;
  const offset = control & 0x2 ? at + 5 + bytes[at + 4] : at + 4;
  return offset < at + PACKET ? offset : null;
}

/** The PTS of a PES that starts at `pes` in the TS packet at `at`, and where its data begins; null when none starts there. */
function presentationTime(
  bytes: Uint8Array,
  at: number,
  pes: number,
): { pts: number; video: boolean; data: number } | null {
  if (!(bytes[at + 1] & 0x40) || pes + 14 > at + PACKET) return null; // no PES starts here
  if (bytes[pes] !== 0 || bytes[pes + 1] !== 0 || bytes[pes + 2] !== 1) return null; // a table, not a PES
  const streamId = bytes[pes + 3];
  // Audio, video and private stream 1 (AC-3 and the like) carry media; padding and the rest do not.
  const media = streamId === 0xbd || (streamId >= 0xc0 && streamId <= 0xef);
  if (!media || !(bytes[pes + 7] & 0x80)) return null;
  const t = pes + 9;
  const pts =
    ((bytes[t] >> 1) & 0x7) * 2 ** 30 +
    ((bytes[t + 1] << 22) | ((bytes[t + 2] >> 1) << 15) | (bytes[t + 3] << 7) | (bytes[t + 4] >> 1));
  return { pts, video: streamId >= 0xe0, data: Math.min(at + PACKET, pes + 9 + bytes[pes + 8]) };
}

const ADTS_RATES = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350];

/** 90 kHz ticks of the ADTS AAC frames in a PES payload; 0 when it is not ADTS. */
function adtsTicks(payload: Uint8Array): number {
  let ticks = 0;
  for (let at = 0; at + 7 <= payload.length;) {
    if (payload[at] !== 0xff || (payload[at + 1] & 0xf6) !== 0xf0) return 0;
    const rate = ADTS_RATES[(payload[at + 2] >> 2) & 0xf];
    const length = ((payload[at + 3] & 0x3) << 11) | (payload[at + 4] << 3) | (payload[at + 5] >> 5);
    if (!rate || length < 7) return 0;
    ticks += (((payload[at + 6] & 0x3) + 1) * 1024 * CLOCK) / rate;
    at += length;
  }
  return ticks;
}

/** The most common step between sorted timestamps: one frame of video, one PES of audio; 0 for a single one. */
function commonStep(sorted: number[]): number {
  const counts = new Map<number, number>();
  for (let i = 1; i < sorted.length; i++) {
    const step = sorted[i] - sorted[i - 1];
    if (step > 0) counts.set(step, (counts.get(step) ?? 0) + 1);
  }
  let best = 0;
  let bestCount = 0;
  for (const [step, count] of counts)
    if (count > bestCount || (count === bestCount && step < best)) [best, bestCount] = [step, count];
  return best;
}
