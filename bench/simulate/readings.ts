import type { ProviderRecording } from '../../server/capture/provider';
import { contentLostSeconds, outcomeFromCoverage } from '../../recorder/recorder-coverage';
import type { Gap } from '../../recorder/recorder-state';
import type { SimInstance } from './provider';
import { coveredMs, holes, type MediaSpan } from './recorder-model';

/*
 * What a simulated recorder reports of its recording: the same fields the real recorders report,
 * measured from the media it got (its spans), never from the clock.
 */

/** Bytes per second of media at the default encoder settings (2.5 Mb/s video + 128 kb/s audio). */
const BYTES_PER_SECOND = 328_000;

const seconds = (ms: number) => Math.round(ms / 100) / 10;

/** Why a hole has no media, as the recorder would say it. */
function gapCause(instance: SimInstance, hole: MediaSpan): Pick<Gap, 'cause' | 'reason'> {
  const { stream } = instance.sermon;
  if (hole.start < stream.liveFrom)
    return {
      cause: 'not_live_yet',
      reason: stream.liveFrom === Infinity ? 'Stream never came' : 'Stream not live yet',
    };
  const outage = stream.outages.find((o) => o.start <= hole.start + 1000 && hole.start < o.end);
  if (outage)
    return outage.kind === 'blip'
      ? { cause: 'stream_dropped', reason: 'Stream dropped' }
      : { cause: 'stream_stalled', reason: 'Stream stalled' };
  return hole.start <= instance.window.start
    ? { cause: 'recorder_down', reason: 'Recorder not started yet' }
    : { cause: 'stream_dropped', reason: 'Reconnecting' };
}

function toGap(instance: SimInstance, hole: MediaSpan): Gap {
  const { cause, reason } = gapCause(instance, hole);
  return {
    start: new Date(hole.start).toISOString(),
    end: new Date(hole.end).toISOString(),
    cause,
    reason,
    content_lost_seconds: contentLostSeconds(cause, hole.start, hole.end),
  };
}

function coverage(instance: SimInstance, until: number) {
  const { start: windowStart, end: windowEnd } = instance.window;
  const end = Math.min(until, windowEnd);
  const covered = coveredMs(instance.spans, windowStart, end);
  const gaps = holes(
    instance.spans.filter((s) => s.start < end),
    windowStart,
    end,
  ).map((h) => toGap(instance, h));
  return {
    covered,
    expectedSeconds: seconds(windowEnd - windowStart),
    coveredSeconds: seconds(covered),
    gaps,
    reconnects: Math.max(0, instance.connections - 1),
    measuredUntil: new Date(end).toISOString(),
  };
}

export function progressReading(instance: SimInstance, now: number): ProviderRecording {
  const c = coverage(instance, now);
  return {
    status: 'recording',
    bytes: Math.round((c.covered / 1000) * BYTES_PER_SECOND),
    mediaSeconds: c.coveredSeconds,
    filePath: null,
    reason: null,
    expectedSeconds: c.expectedSeconds,
    coveredSeconds: c.coveredSeconds,
    gaps: c.gaps,
    reconnects: c.reconnects,
    measuredUntil: c.measuredUntil,
  };
}

export function finalReading(instance: SimInstance): ProviderRecording {
  const c = coverage(instance, instance.stopAt);
  // The recorder's own rule for its file (the same code the real recorders run).
  const early = instance.stopAt < instance.window.end;
  const { status, reason } = outcomeFromCoverage(
    c,
    c.covered === 0 ? 'the stream never gave media' : null,
    early ? instance.endReason : null,
  );
  return {
    status,
    bytes: Math.round((c.covered / 1000) * BYTES_PER_SECOND),
    mediaSeconds: c.coveredSeconds,
    filePath: null,
    reason,
    expectedSeconds: c.expectedSeconds,
    coveredSeconds: c.coveredSeconds,
    gaps: c.gaps,
    reconnects: c.reconnects,
    measuredUntil: c.measuredUntil,
  };
}
