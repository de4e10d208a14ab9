import type { Outage, SermonFaults } from './faults';

/*
 * What one recorder gets from its stream, mirroring the recorder's own rules (RetryPlan): it tries
 * the stream, waits 5 s doubling to 30 s while the stream gives nothing, reconnects 1 s after a
 * connection that gave media ends and then every 2 s for a minute after that drop, and its watchdog
 * ends a connection that gives no media for 60 s. A stall shorter than that resumes on the same
 * connection. All times are absolute milliseconds.
 */

export const RECORDER = {
  /** From launch to the first connection attempt (process start, stream resolution). */
  startupMs: 1500,
  retryInitialMs: 5000,
  retryMaxMs: 30_000,
  reconnectMs: 1000,
  dropRetryMs: 2000,
  dropRetryForMs: 60_000,
  watchdogMs: 60_000,
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

function outageAt(stream: StreamTimeline, at: number): Outage | undefined {
  return stream.outages.find((o) => o.start <= at && at < o.end);
}

function nextOutage(stream: StreamTimeline, after: number): Outage | undefined {
  return stream.outages.find((o) => o.start > after);
}

/** The media one recorder, started at `launchedAt` and gone at `stopAt`, writes. */
export function recordRun(stream: StreamTimeline, launchedAt: number, stopAt: number): { spans: MediaSpan[]; connections: number } {
  const spans: MediaSpan[] = [];
  let connections = 0;
  let at = launchedAt + RECORDER.startupMs;
  let failures = 0;
  let droppedAt = -Infinity;
  while (at < stopAt) {
    if (at < stream.liveFrom || outageAt(stream, at)) {
      if (at - droppedAt < RECORDER.dropRetryForMs) {
        at += RECORDER.dropRetryMs;
        continue;
      }
      failures++;
      at += Math.min(RECORDER.retryMaxMs, RECORDER.retryInitialMs * 2 ** (failures - 1));
      continue;
    }
    failures = 0;
    connections++;
    let cursor = at;
    // One connection: media until a blip, or a stall the watchdog gives up on.
    for (;;) {
      const outage = nextOutage(stream, cursor);
      const end = Math.min(outage?.start ?? Infinity, stopAt);
      spans.push({ start: cursor, end });
      if (!outage || end >= stopAt) return { spans, connections };
      const stallSurvived = outage.kind === 'stall' && outage.end - outage.start < RECORDER.watchdogMs;
      if (stallSurvived) {
        cursor = outage.end;
        continue;
      }
      droppedAt = outage.kind === 'stall' ? outage.start + RECORDER.watchdogMs : outage.start;
      at = droppedAt + RECORDER.reconnectMs;
      break;
    }
  }
  return { spans, connections };
}

/** Seconds of [from, to] the spans cover (spans of different recorders may overlap). */
export function coveredMs(spans: MediaSpan[], from: number, to: number): number {
  const sorted = spans.map((s) => ({ start: Math.max(from, s.start), end: Math.min(to, s.end) })).filter((s) => s.end > s.start).sort((a, b) => a.start - b.start);
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
