import { createRequire } from 'node:module';
import { tzOffset } from '@date-fns/tz';
import type * as GeoTz from 'geo-tz/all';

/**
 * The server's one helper for wall clocks in IANA zones, on @date-fns/tz: the runtime's time-zone
 * database decides offsets, so daylight-saving changes are handled wherever they fall.
 */

const DAY_MS = 86_400_000;

export interface ZonedParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** 0 = Sunday ... 5 = Friday, 6 = Saturday. */
  weekday: number;
}

/*
 * Offsets are cached per zone and quarter hour of UTC: zones change offset only on a quarter hour of
 * UTC, so one lookup serves the whole quarter, and computing times for thousands of mosques costs a
 * few lookups per zone. The cache is a map of zones to maps of quarter numbers, not one map of
 * "zone|quarter" strings: building and hashing that string on every lookup cost more than the rest of
 * the lookup (prayer times for 10,000 mosques make ~50,000 of them). A zone's quarters are dropped
 * together when they pass QUARTERS_PER_ZONE, which bounds the memory of a server running for months.
 */
const QUARTER_MS = 15 * 60_000;
const QUARTERS_PER_ZONE = 5_000;
const offsetCache = new Map<string, Map<number, number>>();

/** Offset of `zone` from UTC at `instant`, in milliseconds (positive east of Greenwich). */
export function zoneOffsetMs(instant: Date, zone: string): number {
  const quarter = Math.floor(instant.getTime() / QUARTER_MS);
  let quarters = offsetCache.get(zone);
  if (!quarters) offsetCache.set(zone, (quarters = new Map()));
  let offset = quarters.get(quarter);
  if (offset === undefined) {
    offset = tzOffset(zone, new Date(quarter * QUARTER_MS)) * 60_000;
    if (quarters.size >= QUARTERS_PER_ZONE) quarters.clear();
    quarters.set(quarter, offset);
  }
  return offset;
}

/** The wall clock of `zone` at `instant`. */
export function zonedParts(instant: Date, zone: string): ZonedParts {
  const wall = new Date(instant.getTime() + zoneOffsetMs(instant, zone));
  return {
    year: wall.getUTCFullYear(),
    month: wall.getUTCMonth() + 1,
    day: wall.getUTCDate(),
    hour: wall.getUTCHours(),
    minute: wall.getUTCMinutes(),
    second: wall.getUTCSeconds(),
    weekday: wall.getUTCDay(),
  };
}

/**
 * The instant at which `zone`'s wall clock shows the given local time. A time skipped by a
 * spring-forward change resolves to the same wall time shifted by the gap (e.g. 02:30 -> 03:30);
 * a time shown twice by a fall-back change resolves to the earlier instant.
 */
export function zonedTimeToUtc(
  local: { year: number; month: number; day: number; hour: number; minute: number },
  zone: string,
): Date {
  const wall = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute);
  // A zone changes offset at most once a day: the offsets a day either side are the only candidates.
  const before = zoneOffsetMs(new Date(wall - DAY_MS), zone);
  const after = zoneOffsetMs(new Date(wall + DAY_MS), zone);
  const matches = [...new Set([before, after])]
    .map((offset) => wall - offset)
    .filter((candidate) => candidate + zoneOffsetMs(new Date(candidate), zone) === wall)
    .sort((a, b) => a - b);
  // No match: the wall time falls in a gap; the pre-change offset moves it forward by the gap.
  return new Date(matches[0] ?? wall - before);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `HH:MM` on `zone`'s wall clock. */
export function localTimeText(instant: Date, zone: string): string {
  const p = zonedParts(instant, zone);
  return `${pad(p.hour)}:${pad(p.minute)}`;
}

/** `YYYY-MM-DD` on `zone`'s wall clock. */
export function localDateText(instant: Date, zone: string): string {
  const p = zonedParts(instant, zone);
  return `${p.year}-${pad(p.month)}-${pad(p.day)}`;
}

let find: typeof GeoTz.find | undefined;
/** geo-tz, loaded on the first lookup: most mosques carry their zone, and its code costs ~20 ms of a start. */
const findZones = () => (find ??= (createRequire(import.meta.url)('geo-tz/all') as typeof GeoTz).find);

/**
 * The IANA zone at a point, from geo-tz's offline boundary data (its full set, so a place gets its own
 * zone name, e.g. Europe/Oslo rather than an older zone with the same rules). Where boundaries overlap
 * (disputed areas) the first zone is taken; over the open sea it is an `Etc/GMT±N` zone.
 */
export function timeZoneAt(latitude: number, longitude: number): string | null {
  const zonesAt = findZones();
  try {
    return zonesAt(latitude, longitude)[0] ?? null;
  } catch {
    return null;
  }
}
