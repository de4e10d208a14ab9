import type { GapCause, RecordingGap } from '../../contract/instances';

/** Each gap cause (contract/instances.ts gapCauseSchema) as an operator reads it. */
export const GAP_CAUSE_LABELS: Record<GapCause, string> = {
  not_live_yet: 'Not live yet',
  stream_dropped: 'Stream dropped',
  stream_stalled: 'Stream stalled',
  stream_refused: 'Address refused',
  sequence_reset: 'Encoder restarted',
  recorder_down: 'Recorder down',
  recorder_late: 'Recorder late',
  recorder_overloaded: 'Recorder overloaded',
  server_down: 'Server down',
  store_unreachable: 'Store unreachable',
};

/** A gap this long or longer is a hole worth listing (issue 23); shorter ones are the joins of a live stream. */
export const HOLE_MIN_SECONDS = 10;

const lengthSeconds = (gap: Pick<RecordingGap, 'start' | 'end'>) =>
  (Date.parse(gap.end) - Date.parse(gap.start)) / 1000;

/** The gaps of 10 s or more, earliest first. */
export function holesOf(gaps: readonly RecordingGap[]): RecordingGap[] {
  return gaps.filter((gap) => lengthSeconds(gap) >= HOLE_MIN_SECONDS).sort((a, b) => a.start.localeCompare(b.start));
}

/** Seconds of content the stream offered during these gaps that the recording does not hold. */
export function lostSeconds(gaps: readonly RecordingGap[]): number {
  return gaps.reduce((sum, gap) => sum + gap.content_lost_seconds, 0);
}

/** "1 hole · 70 s lost", "2 holes · nothing lost" (the stream was not on the air). */
export function holesSummary(holes: readonly RecordingGap[]): string {
  const lost = Math.round(lostSeconds(holes));
  return `${holes.length} ${holes.length === 1 ? 'hole' : 'holes'} · ${lost > 0 ? `${lost} s lost` : 'nothing lost'}`;
}

/** Built per call (a handful of holes): a cached formatter would keep the zone it was made in. */
function clockFormat(timeZone: string | undefined): Intl.DateTimeFormat {
  return timeZone === 'UTC'
    ? new Intl.DateTimeFormat('en-GB', {
        timeZone,
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        hourCycle: 'h23',
      })
    : new Intl.DateTimeFormat('en-US', {
        timeZone,
        hour: 'numeric',
        minute: '2-digit',
        second: '2-digit',
        hour12: true,
        timeZoneName: 'short',
      });
}

/**
 * An instant of a hole to the second, on the operator's clock ("12:52:10 PM GMT+1"; `timeZone` stands in
 * for the browser's) and in UTC ("11:52:10 UTC"): a 10 s hole needs its seconds.
 */
export function holeInstant(instant: string, timeZone?: string): { local: string; utc: string } {
  const date = new Date(instant);
  // Intl puts a narrow no-break space before AM/PM in some engines: the same text in every browser.
  const local = clockFormat(timeZone).format(date).replace(/\s/g, ' ');
  return { local, utc: `${clockFormat('UTC').format(date)} UTC` };
}
