import type { Outage, SermonFaults } from './faults';

/*
 * What one recorder gets from its stream, mirroring the segment-level HLS recorder as the fidelity
 * lab measured it (npm run fidelity, tests/server/capture/fidelity-faults.test.ts): it reads the
 * playlist 1.5 s after launch, polls a stream that is not on the air every 2 s and then takes every
 * segment the playlist lists, so it loses nothing of a late start; a drop or a stall costs only what
 * the stream did not offer (media resumes with the stream, no watchdog or back-off); a recorder
 * started again after a crash first takes what the playlist still lists (12 s: a short sliding
 * playlist of 6 segments of 2 s; many streams list far more). All times are absolute milliseconds.
 */

export const RECORDER = {
  /** From launch to the first playlist read (process start, stream resolution). */
  startupMs: 1500,
  /** A stream not on the air is read again this often. */
  offAirPollMs: 2000,
  /** What a playlist still lists of the past when a recorder starts. */
  listedMs: 12_000,
} as const;

export interface MediaSpan {
  start: number;
  end: number;
}

export interface StreamTimeline {
  /** When the stream first gives media; Infinity when it never does. */
  liveFrom: number;
  outages: Outage[];
}

export function streamTimeline(faults: SermonFaults, windowStart: number): StreamTimeline {
  return {
    liveFrom: faults.neverLive ? Infinity : windowStart + faults.lateMs,
    outages: faults.outages.map((o) => ({ ...o, start: windowStart + o.start, end: windowStart + o.end })),
  };
}

/** The media one recorder, started at `launchedAt` and gone at `stopAt`, writes. */
export function recordRun(
  stream: StreamTimeline,
  launchedAt: number,
  stopAt: number,
): { spans: MediaSpan[]; connections: number } {
  const firstRead = launchedAt + RECORDER.startupMs;
  if (stream.liveFrom === Infinity || firstRead >= stopAt) return { spans: [], connections: 0 };
  // The read that first finds the stream on the air, and what its playlist still lists from before it.
  const onAirRead =
    firstRead >= stream.liveFrom
      ? firstRead
      : firstRead + Math.ceil((stream.liveFrom - firstRead) / RECORDER.offAirPollMs) * RECORDER.offAirPollMs;
  if (onAirRead >= stopAt) return { spans: [], connections: 0 };
  let cursor = Math.max(stream.liveFrom, onAirRead - RECORDER.listedMs);
  const spans: MediaSpan[] = [];
  let connections = 1;
  for (const outage of stream.outages) {
    if (outage.end <= cursor) continue;
    if (outage.start >= stopAt) break;
    if (outage.start > cursor) spans.push({ start: cursor, end: outage.start });
    cursor = outage.end;
    connections++;
  }
  if (cursor < stopAt) spans.push({ start: cursor, end: stopAt });
  return { spans, connections };
}

/** Seconds of [from, to] the spans cover (spans of different recorders may overlap). */
export function coveredMs(spans: MediaSpan[], from: number, to: number): number {
  const sorted = spans
    .map((s) => ({ start: Math.max(from, s.start), end: Math.min(to, s.end) }))
    .filter((s) => s.end > s.start)
    .sort((a, b) => a.start - b.start);
  let covered = 0;
  let cursor = from;
  for (const span of sorted) {
    if (span.end <= cursor) continue;
    covered += span.end - Math.max(cursor, span.start);
    cursor = span.end;
  }
  return covered;
}

/** The holes of [from, until] the spans leave, longer than `minMs`. */
export function holes(spans: MediaSpan[], from: number, until: number, minMs = 2000): MediaSpan[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  const result: MediaSpan[] = [];
  let cursor = from;
  for (const span of sorted) {
    if (span.start - cursor >= minMs) result.push({ start: cursor, end: Math.min(span.start, until) });
    cursor = Math.max(cursor, span.end);
  }
  if (until - cursor >= minMs) result.push({ start: cursor, end: until });
  return result.filter((h) => h.end > h.start);
}
