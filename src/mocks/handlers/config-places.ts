import {
  RECORDING_LEAD_MINUTES,
  type ExtractionResult,
  type GeocodeResult,
  type Mosque,
  type PrayerTimeRecord,
} from '../../../contract/mosques';

/*
 * Rough stand-ins for the server's map-link reading, offline geocoding and prayer times, good enough for
 * component tests and `npm run dev:mock`: long links are read, short links land in Mecca, places come
 * from a small table, and Friday prayer is solar noon from the longitude plus 2 minutes (or the fixed time).
 */

interface Place {
  city: string;
  district: string | null;
  country: string;
  country_code: string;
  timezone: string;
  latitude: number;
  longitude: number;
}

const PLACES: Place[] = [
  {
    city: 'Mecca',
    district: 'Al Haram',
    country: 'Saudi Arabia',
    country_code: 'SA',
    timezone: 'Asia/Riyadh',
    latitude: 21.4225,
    longitude: 39.8262,
  },
  {
    city: 'Cairo',
    district: 'El Darb El Ahmar',
    country: 'Egypt',
    country_code: 'EG',
    timezone: 'Africa/Cairo',
    latitude: 30.0458,
    longitude: 31.2625,
  },
  {
    city: 'Istanbul',
    district: 'Fatih',
    country: 'Turkey',
    country_code: 'TR',
    timezone: 'Europe/Istanbul',
    latitude: 41.0054,
    longitude: 28.9768,
  },
  {
    city: 'London',
    district: 'Westminster',
    country: 'United Kingdom',
    country_code: 'GB',
    timezone: 'Europe/London',
    latitude: 51.5287,
    longitude: -0.1636,
  },
  {
    city: 'New York',
    district: 'Manhattan',
    country: 'United States',
    country_code: 'US',
    timezone: 'America/New_York',
    latitude: 40.7831,
    longitude: -73.9712,
  },
  {
    city: 'Jakarta',
    district: 'Gambir',
    country: 'Indonesia',
    country_code: 'ID',
    timezone: 'Asia/Jakarta',
    latitude: -6.1702,
    longitude: 106.8315,
  },
  {
    city: 'Karachi',
    district: 'Saddar',
    country: 'Pakistan',
    country_code: 'PK',
    timezone: 'Asia/Karachi',
    latitude: 24.8607,
    longitude: 67.0011,
  },
  {
    city: 'Sydney',
    district: 'Lakemba',
    country: 'Australia',
    country_code: 'AU',
    timezone: 'Australia/Sydney',
    latitude: -33.9197,
    longitude: 151.0753,
  },
];

/** Where every short link lands in the mocks (they are not followed). */
const SHORT_LINK_LANDING = { latitude: 21.4225, longitude: 39.8262 };
const distanceDeg = (place: Place, latitude: number, longitude: number) =>
  Math.hypot(place.latitude - latitude, place.longitude - longitude);

function nearestPlace(latitude: number, longitude: number, withinDegrees: number): Place | null {
  const sorted = [...PLACES].sort((a, b) => distanceDeg(a, latitude, longitude) - distanceDeg(b, latitude, longitude));
  return sorted[0] && distanceDeg(sorted[0], latitude, longitude) <= withinDegrees ? sorted[0] : null;
}

/** The zone of the nearest known place, else a fixed offset from the longitude. */
export function timeZoneAt(latitude: number, longitude: number): string {
  const place = nearestPlace(latitude, longitude, 5);
  if (place) return place.timezone;
  const hours = Math.round(longitude / 15);
  return hours === 0 ? 'UTC' : `Etc/GMT${hours > 0 ? '-' : '+'}${Math.abs(hours)}`;
}

const NUMBER = String.raw`(-?\d{1,3}(?:\.\d+)?)`;
const LINK_PATTERNS = [
  new RegExp(String.raw`!3d${NUMBER}!4d${NUMBER}`),
  new RegExp(String.raw`/@${NUMBER},${NUMBER}`),
  new RegExp(String.raw`[?&](?:q|query|ll)=${NUMBER}(?:,|%2C)\s*${NUMBER}`),
];

export function readLink(url: string): ExtractionResult {
  const base = { mosque_id: null, google_maps_url: url, stored: false };
  if (/(?:maps\.app\.goo\.gl|goo\.gl\/maps)\//i.test(url)) {
    const { latitude, longitude } = SHORT_LINK_LANDING;
    return {
      ...base,
      success: true,
      latitude,
      longitude,
      timezone_guess: timeZoneAt(latitude, longitude),
      extraction_method: 'map_link_redirect',
    };
  }
  for (const pattern of LINK_PATTERNS) {
    const match = pattern.exec(url);
    if (match) {
      const latitude = Number(match[1]);
      const longitude = Number(match[2]);
      return {
        ...base,
        success: true,
        latitude,
        longitude,
        timezone_guess: timeZoneAt(latitude, longitude),
        extraction_method: 'map_link',
      };
    }
  }
  return {
    ...base,
    success: false,
    latitude: null,
    longitude: null,
    timezone_guess: null,
    extraction_method: null,
    error: 'No coordinates found in the map link',
  };
}

export function geocodeAt(latitude: number, longitude: number): GeocodeResult {
  const place = nearestPlace(latitude, longitude, 0.5);
  return place
    ? {
        city: place.city,
        district: place.district,
        country: place.country,
        country_code: place.country_code,
        timezone: place.timezone,
      }
    : { city: null, district: null, country: null, country_code: null, timezone: timeZoneAt(latitude, longitude) };
}

/** Minutes the zone is ahead of UTC at `instant`. */
function offsetMinutes(zone: string, instant: Date): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  }).formatToParts(instant);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return (
    (Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute')) -
      Math.floor(instant.getTime() / 60_000) * 60_000) /
    60_000
  );
}

const clock = (date: Date, zone: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
    date,
  );

/** The mosque's next Friday prayer after `now`, or null without a zone and coordinates (or a fixed time); the scheduler mocks use it too. */
export function prayerTime(mosque: Mosque, now = new Date()): PrayerTimeRecord | null {
  const zone = mosque.timezone;
  if (!zone || (mosque.fixed_jumuah_time === null && (mosque.latitude === null || mosque.longitude === null)))
    return null;
  for (let days = 0; days <= 7; days += 1) {
    const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + days));
    if (day.getUTCDay() !== 5) continue;
    let minutesUtc: number;
    if (mosque.fixed_jumuah_time) {
      const [hours, minutes] = mosque.fixed_jumuah_time.split(':').map(Number);
      minutesUtc = hours * 60 + minutes - offsetMinutes(zone, new Date(day.getTime() + 12 * 3_600_000));
    } else {
      minutesUtc = Math.round(720 - 4 * (mosque.longitude ?? 0) + 2);
    }
    const prayer = new Date(day.getTime() + minutesUtc * 60_000);
    if (prayer <= now) continue;
    const start = new Date(prayer.getTime() - RECORDING_LEAD_MINUTES * 60_000);
    return {
      mosque_id: mosque.mosque_id,
      mosque_name: mosque.name,
      friday_prayer: prayer.toISOString(),
      recording_start: start.toISOString(),
      recording_time: clock(start, zone),
      prayer_time: clock(prayer, zone),
      timezone: zone,
      calculation_method: mosque.fixed_jumuah_time ? 'Fixed' : (mosque.calculation_method ?? 'MuslimWorldLeague'),
    };
  }
  return null;
}
