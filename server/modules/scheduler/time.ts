/** Wall-clock helpers for IANA zones, on Intl alone (DST-correct, no extra dependency). */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

export function wallClock(instant: Date, timeZone: string): WallClock {
  const parts = Object.fromEntries(formatter(timeZone).formatToParts(instant).map((p) => [p.type, p.value]));
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

const QUARTER_HOUR_MS = 15 * 60_000;
const offsets = new Map<string, number>();

/**
 * The local calendar date (YYYY-MM-DD) of an instant in a zone. Zone offsets change only on
 * quarter-hour boundaries, so the offset is computed once per zone and quarter hour (Intl is slow,
 * and scheduling 10,000 mosques asks this 10,000 times for a handful of zones and hours).
 */
export function localDate(instant: Date, timeZone: string): string {
  const bucket = Math.floor(instant.getTime() / QUARTER_HOUR_MS);
  const key = `${timeZone}|${bucket}`;
  let offset = offsets.get(key);
  if (offset === undefined) {
    if (offsets.size > 10_000) offsets.clear();
    offset = offsetAt(new Date(bucket * QUARTER_HOUR_MS), timeZone);
    offsets.set(key, offset);
  }
  return new Date(instant.getTime() + offset).toISOString().slice(0, 10);
}

/** Offset of the zone from UTC at an instant, in ms (east positive). */
function offsetAt(instant: Date, timeZone: string): number {
  const w = wallClock(instant, timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(instant.getTime() / 1000) * 1000;
}

/** The instant at which a zone's wall clock reads `date` `time` (HH:MM[:SS]), DST-correct (times inside a DST gap or overlap resolve to one of the neighbouring instants). */
export function zonedTimeToUtc(date: string, time: string, timeZone: string): Date {
  const [y, mo, d] = date.split('-').map(Number);
  const [h, mi, s = 0] = time.split(':').map(Number);
  const wall = Date.UTC(y, mo - 1, d, h, mi, s);
  let guess = wall - offsetAt(new Date(wall), timeZone);
  guess = wall - offsetAt(new Date(guess), timeZone);
  return new Date(guess);
}

/** ISO weekday in a zone: 1 Monday ... 7 Sunday. */
export function localWeekday(instant: Date, timeZone: string): number {
  const w = wallClock(instant, timeZone);
  const day = new Date(Date.UTC(w.year, w.month - 1, w.day)).getUTCDay();
  return day === 0 ? 7 : day;
}
