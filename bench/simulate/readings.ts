import type { ProviderRecording } from '../../server/capture/provider';
import type { SimInstance } from './provider';
import { coveredMs, holes } from './recorder-model';

/*
 * What a simulated recorder reports of its recording: the same fields the real recorders report,
 * measured from the media it got (its spans), never from the clock.
 */

/** Bytes per second of media at the default encoder settings (2.5 Mb/s video + 128 kb/s audio). */
const BYTES_PER_SECOND = 328_000;
/** The recorder's own rule for its file: captured when media covers 99% of the window. */
const CAPTURED_SHARE = 0.99;

const seconds = (ms: number) => Math.round(ms / 100) / 10;

function coverage(instance: SimInstance, until: number) {
  const { windowStart, windowEnd } = instance.sermon;
  const end = Math.min(until, windowEnd);
  const covered = coveredMs(instance.spans, windowStart, end);
  const gaps = holes(
    instance.spans.filter((s) => s.start < end),
    Math.max(windowStart, instance.launchedAt),
    end,
  ).map((h) => ({ start: new Date(h.start).toISOString(), end: new Date(h.end).toISOString(), reason: 'No media from the stream' }));
  return {
    covered,
    expectedSeconds: seconds(windowEnd - windowStart),
    coveredSeconds: seconds(covered),
    gaps,
    reconnects: Math.max(0, instance.connections - 1),
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
  };
}

export function finalReading(instance: SimInstance): ProviderRecording {
  const c = coverage(instance, instance.stopAt);
  const captured = c.coveredSeconds >= c.expectedSeconds * CAPTURED_SHARE;
  const reason = c.covered === 0 ? `No media: ${instance.endReason}` : captured ? null : `${c.coveredSeconds} of ${c.expectedSeconds} s recorded: ${instance.endReason}`;
  return {
    status: c.covered === 0 ? 'failed' : captured ? 'completed' : 'partial',
    bytes: Math.round((c.covered / 1000) * BYTES_PER_SECOND),
    mediaSeconds: c.coveredSeconds,
    filePath: null,
    reason,
    expectedSeconds: c.expectedSeconds,
    coveredSeconds: c.coveredSeconds,
    gaps: c.gaps,
    reconnects: c.reconnects,
  };
}
