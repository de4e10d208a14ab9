import type { Random } from './random';

/*
 * What can go wrong with one sermon's stream and recorder, drawn per sermon from the season's seed.
 * Times are milliseconds from the opening of the recording window (recording_start).
 */

export type FaultMixName = 'none' | 'default' | 'harsh';

export interface Outage {
  start: number;
  end: number;
  /** A blip ends the connection (HTTP error, end of stream); a stall freezes it without a word. */
  kind: 'blip' | 'stall';
}

export interface SermonFaults {
  /** The stream goes live this long after the window opens (0 or less: live already). */
  lateMs: number;
  /** The stream never comes: nothing can be recorded, the operator must be told. */
  neverLive: boolean;
  outages: Outage[];
  /** Whatever recorder runs at these instants dies. */
  crashesAt: number[];
  /** The first launches of this sermon throw (capacity, API error). */
  launchFailures: number;
}

interface Range {
  probability: number;
  count: [number, number];
  seconds: [number, number];
}

export interface FaultMix {
  /**
   * A stream that goes live late: `minutes` after the window opens (negative: before it). A mosque's
   * broadcast usually starts 45 minutes before the prayer, 25 before the window opens.
   */
  late: { probability: number; minutes: [number, number] };
  neverLive: number;
  blips: Range;
  stalls: Range;
  crashes: { probability: number; count: [number, number] };
  launchFailures: { probability: number; count: [number, number] };
  /** Server restarts per Friday, each down for `downSeconds`. */
  restarts: { perFriday: number; downSeconds: [number, number] };
}

const NO_RANGE: Range = { probability: 0, count: [0, 0], seconds: [0, 0] };

export const FAULT_MIXES: Record<FaultMixName, FaultMix> = {
  none: {
    late: { probability: 0, minutes: [0, 0] },
    neverLive: 0,
    blips: NO_RANGE,
    stalls: NO_RANGE,
    crashes: { probability: 0, count: [0, 0] },
    launchFailures: { probability: 0, count: [0, 0] },
    restarts: { perFriday: 0, downSeconds: [0, 0] },
  },
  /**
   * Each fault alone stays inside what the recorder and the scheduler recover from within the window.
   * A stream late by up to 25 minutes on its usual start is live by the time the window opens (20
   * minutes before the prayer): the pre-roll absorbs it; a few come up to 30 s after the window
   * opened, which the recorder's retries catch within the 1% the window allows. Later than that
   * cannot be captured in full (see the harsh mix): the window counts from recording start.
   */
  default: {
    late: { probability: 0.3, minutes: [-25, 0.5] },
    neverLive: 0,
    blips: { probability: 0.2, count: [1, 2], seconds: [1, 15] },
    stalls: { probability: 0.1, count: [1, 1], seconds: [5, 45] },
    crashes: { probability: 0.05, count: [1, 1] },
    launchFailures: { probability: 0.05, count: [1, 2] },
    restarts: { perFriday: 2, downSeconds: [5, 30] },
  },
  /**
   * Beyond recovery: streams live only 0-25 minutes after the window opened, streams that never come,
   * long stalls, repeated crashes, launches that keep failing, long outages of the server.
   */
  harsh: {
    late: { probability: 0.4, minutes: [0, 25] },
    neverLive: 0.03,
    blips: { probability: 0.4, count: [1, 3], seconds: [1, 60] },
    stalls: { probability: 0.25, count: [1, 2], seconds: [10, 180] },
    crashes: { probability: 0.15, count: [1, 3] },
    launchFailures: { probability: 0.1, count: [1, 5] },
    restarts: { perFriday: 3, downSeconds: [5, 600] },
  },
};

const MINUTE = 60_000;

/** Draws one sermon's faults; the window is `windowMs` long. */
export function drawFaults(mix: FaultMix, random: Random, windowMs: number): SermonFaults {
  const lateMs = random.chance(mix.late.probability)
    ? Math.round(random.between(mix.late.minutes[0], mix.late.minutes[1]) * MINUTE)
    : 0;
  const neverLive = random.chance(mix.neverLive);
  // Outages and crashes fall after the stream is up and well before the window closes.
  const from = Math.max(0, lateMs) + MINUTE;
  const until = windowMs - 10 * MINUTE;
  const outages: Outage[] = [
    ...draw(mix.blips, random, from, until).map((o) => ({ ...o, kind: 'blip' as const })),
    ...draw(mix.stalls, random, from, until).map((o) => ({ ...o, kind: 'stall' as const })),
  ].sort((a, b) => a.start - b.start);
  const crashes = random.chance(mix.crashes.probability) ? random.int(mix.crashes.count[0], mix.crashes.count[1]) : 0;
  const crashesAt = Array.from({ length: crashes }, () => Math.round(random.between(from, until))).sort(
    (a, b) => a - b,
  );
  const launchFailures = random.chance(mix.launchFailures.probability)
    ? random.int(mix.launchFailures.count[0], mix.launchFailures.count[1])
    : 0;
  return { lateMs, neverLive, outages: merge(outages), crashesAt, launchFailures };
}

function draw(range: Range, random: Random, from: number, until: number): { start: number; end: number }[] {
  if (!random.chance(range.probability)) return [];
  return Array.from({ length: random.int(range.count[0], range.count[1]) }, () => {
    const start = Math.round(random.between(from, until));
    return { start, end: start + Math.round(random.between(range.seconds[0], range.seconds[1]) * 1000) };
  });
}

/** Overlapping outages become one (a stall inside a blip is still one hole in the stream). */
function merge(outages: Outage[]): Outage[] {
  const merged: Outage[] = [];
  for (const outage of outages) {
    const last = merged.at(-1);
    if (last && outage.start <= last.end) {
      last.end = Math.max(last.end, outage.end);
      if (outage.kind === 'blip') last.kind = 'blip';
    } else merged.push({ ...outage });
  }
  return merged;
}

export const isFaultMixName = (value: string): value is FaultMixName => value in FAULT_MIXES;
