/**
 * The scheduler's wall-clock helpers for IANA zones: a thin layer over server/geo/timezone (Intl alone,
 * DST-correct, offsets cached per zone and quarter hour), in the shapes the scheduler uses.
 */
import { localDateText, zonedParts, zoneOffsetMs } from '../../geo/timezone';

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

export function wallClock(instant: Date, timeZone: string): WallClock {
  const { year, month, day, hour, minute, second } = zonedParts(instant, timeZone);
  return { year, month, day, hour, minute, second };
}

/** The local calendar date (YYYY-MM-DD) of an instant in a zone. */
export const localDate = localDateText;

/** The instant at which a zone's wall clock reads `date` `time` (HH:MM[:SS]), DST-correct (times inside a DST gap or overlap resolve to one of the neighbouring instants). */
export function zonedTimeToUtc(date: string, time: string, timeZone: string): Date {
  const [y, mo, d] = date.split('-').map(Number);
  const [h, mi, s = 0] = time.split(':').map(Number);
  const wall = Date.UTC(y, mo - 1, d, h, mi, s);
  let guess = wall - zoneOffsetMs(new Date(wall), timeZone);
  guess = wall - zoneOffsetMs(new Date(guess), timeZone);
  return new Date(guess);
}

/** ISO weekday in a zone: 1 Monday ... 7 Sunday. */
export function localWeekday(instant: Date, timeZone: string): number {
  return zonedParts(instant, timeZone).weekday || 7;
}
