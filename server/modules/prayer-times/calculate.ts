import { Coordinates, PrayerTimes } from 'adhan';
import {
  FIXED_TIME_METHOD,
  RECORDING_LEAD_MINUTES,
  type CalculationMethod,
  type PrayerTimeRecord,
} from '../../../contract/mosques';
import { countryCodeAt } from '../../geo/geocode';
import { localTimeText, timeZoneAt, zonedParts, zonedTimeToUtc } from '../../geo/timezone';
import { defaultMethodFor, parametersFor } from './methods';

/** What a Friday prayer is computed from: the parts of a mosque that matter. */
export interface PrayerSource {
  mosque_id: string;
  name: string;
  latitude: number | null;
  longitude: number | null;
  timezone: string | null;
  country_code: string | null;
  calculation_method: CalculationMethod | null;
  fixed_jumuah_time: string | null;
}

/** A calendar date (no zone). */
export interface LocalDate {
  year: number;
  month: number;
  day: number;
}

const FRIDAY = 5;
const DAY_MS = 86_400_000;
const LEAD_MS = RECORDING_LEAD_MINUTES * 60_000;

function addDays(date: LocalDate, days: number): LocalDate {
  const shifted = new Date(Date.UTC(date.year, date.month - 1, date.day) + days * DAY_MS);
  return { year: shifted.getUTCFullYear(), month: shifted.getUTCMonth() + 1, day: shifted.getUTCDate() };
}

const dayNumber = (date: LocalDate) => Date.UTC(date.year, date.month - 1, date.day) / DAY_MS;

/** The zone a mosque's times are given in: its own, else the one its coordinates lie in. */
export function zoneOf(source: PrayerSource): string | null {
  if (source.timezone) return source.timezone;
  if (source.latitude !== null && source.longitude !== null) return timeZoneAt(source.latitude, source.longitude);
  return null;
}

/** The method for a mosque: its own, else its country's default (the stored country, else the one at its coordinates). */
export function methodOf(source: PrayerSource): CalculationMethod {
  if (source.calculation_method) return source.calculation_method;
  if (source.country_code) return defaultMethodFor(source.country_code);
  const located =
    source.latitude !== null && source.longitude !== null ? countryCodeAt(source.latitude, source.longitude) : null;
  return defaultMethodFor(located);
}

/**
 * Dhuhr on a local calendar date, per adhan. adhan computes the transit of the UTC day named by its
 * date argument's components; for zones far from their meridian (e.g. UTC+13/+14) that transit can
 * fall on the neighbouring local date, so the date is shifted until the result lands on the wanted one.
 */
export function dhuhrOn(
  date: LocalDate,
  latitude: number,
  longitude: number,
  zone: string,
  method: CalculationMethod,
): Date {
  const coordinates = new Coordinates(latitude, longitude);
  const parameters = parametersFor(method, coordinates);
  let asked = date;
  let dhuhr = new Date(Number.NaN);
  for (let attempt = 0; attempt < 3; attempt += 1) {
    // adhan reads the local-time getters of its date argument: noon keeps them on the asked date in any process zone.
    dhuhr = new PrayerTimes(coordinates, new Date(asked.year, asked.month - 1, asked.day, 12), parameters).dhuhr;
    const landed = zonedParts(dhuhr, zone);
    const off = dayNumber(landed) - dayNumber(date);
    if (off === 0) return dhuhr;
    asked = addDays(asked, -off);
  }
  return dhuhr;
}

/** The prayer instant and method for a mosque on a local date, or null when it cannot be computed. */
function prayerOn(source: PrayerSource, date: LocalDate, zone: string): { at: Date; method: string } | null {
  if (source.fixed_jumuah_time) {
    const [hour, minute] = source.fixed_jumuah_time.split(':').map(Number);
    return { at: zonedTimeToUtc({ ...date, hour, minute }, zone), method: FIXED_TIME_METHOD };
  }
  if (source.latitude === null || source.longitude === null) return null;
  const method = methodOf(source);
  return { at: dhuhrOn(date, source.latitude, source.longitude, zone, method), method };
}

function record(source: PrayerSource, zone: string, prayer: { at: Date; method: string }): PrayerTimeRecord {
  const start = new Date(prayer.at.getTime() - LEAD_MS);
  return {
    mosque_id: source.mosque_id,
    mosque_name: source.name,
    friday_prayer: prayer.at.toISOString(),
    recording_start: start.toISOString(),
    recording_time: localTimeText(start, zone),
    prayer_time: localTimeText(prayer.at, zone),
    timezone: zone,
    calculation_method: prayer.method,
  };
}

/** Whether a mosque has what a prayer time needs: coordinates, or a fixed time and a zone. */
export function canComputePrayer(source: PrayerSource): boolean {
  return (
    zoneOf(source) !== null &&
    (source.fixed_jumuah_time !== null || (source.latitude !== null && source.longitude !== null))
  );
}

/**
 * The mosque's next Friday prayer after `now`: today's when it is Friday in the mosque's zone and the
 * prayer has not begun, else the coming Friday's. Null when the mosque has neither coordinates nor a
 * fixed time with a zone.
 */
export function nextFridayPrayer(source: PrayerSource, now: Date): PrayerTimeRecord | null {
  const zone = zoneOf(source);
  if (!zone) return null;
  const today = zonedParts(now, zone);
  let friday = addDays(today, (FRIDAY - today.weekday + 7) % 7);
  let prayer = prayerOn(source, friday, zone);
  if (!prayer) return null;
  if (prayer.at.getTime() <= now.getTime()) {
    friday = addDays(friday, 7);
    prayer = prayerOn(source, friday, zone);
    if (!prayer) return null;
  }
  return record(source, zone, prayer);
}

/** The Friday prayer on a given local date (`YYYY-MM-DD`, meant to be a Friday; not checked). */
export function fridayPrayerOn(source: PrayerSource, date: string): PrayerTimeRecord | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const zone = zoneOf(source);
  if (!match || !zone) return null;
  const prayer = prayerOn(source, { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) }, zone);
  return prayer && record(source, zone, prayer);
}
