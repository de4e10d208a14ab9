import { http, HttpResponse } from 'msw';
import type { z } from 'zod';
import {
  extractRequestSchema,
  generateRequestSchema,
  geocodeRequestSchema,
  mosqueCreateRequestSchema,
  mosqueUpdateRequestSchema,
  RECORDING_LEAD_MINUTES,
  type CoordinatesRecord,
  type ExtractionResult,
  type GeocodeResult,
  type Mosque,
  type PrayerTimeRecord,
  type RecordingConfig,
} from '../../../contract/config';
import { authorize, errorResponse, readJson } from '../http';
import { nowIso, store, type MockStore } from '../store';

/*
 * Mosques, coordinates, prayer times and recording configurations, answered as the server does
 * (bodies validated by the contract's schemas). The mosques live beside the shared store and are
 * seeded again whenever resetStore() replaces it. Map links, places and prayer times are rough
 * stand-ins: long links are read, short links land in Mecca, places come from a small table and
 * Friday prayer is solar noon from the longitude plus 2 minutes.
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
  { city: 'Mecca', district: 'Al Haram', country: 'Saudi Arabia', country_code: 'SA', timezone: 'Asia/Riyadh', latitude: 21.4225, longitude: 39.8262 },
  { city: 'Cairo', district: 'El Darb El Ahmar', country: 'Egypt', country_code: 'EG', timezone: 'Africa/Cairo', latitude: 30.0458, longitude: 31.2625 },
  { city: 'Istanbul', district: 'Fatih', country: 'Turkey', country_code: 'TR', timezone: 'Europe/Istanbul', latitude: 41.0054, longitude: 28.9768 },
  { city: 'London', district: 'Westminster', country: 'United Kingdom', country_code: 'GB', timezone: 'Europe/London', latitude: 51.5287, longitude: -0.1636 },
  { city: 'New York', district: 'Manhattan', country: 'United States', country_code: 'US', timezone: 'America/New_York', latitude: 40.7831, longitude: -73.9712 },
  { city: 'Jakarta', district: 'Gambir', country: 'Indonesia', country_code: 'ID', timezone: 'Asia/Jakarta', latitude: -6.1702, longitude: 106.8315 },
  { city: 'Karachi', district: 'Saddar', country: 'Pakistan', country_code: 'PK', timezone: 'Asia/Karachi', latitude: 24.8607, longitude: 67.0011 },
  { city: 'Sydney', district: 'Lakemba', country: 'Australia', country_code: 'AU', timezone: 'Australia/Sydney', latitude: -33.9197, longitude: 151.0753 },
];

/** Where every short link lands in the mocks (they are not followed). */
const SHORT_LINK_LANDING = { latitude: 21.4225, longitude: 39.8262 };
const STREAM_URL_TEMPLATE = 'https://www.youtube.com/channel/{id}/live';
const SEED_TIME = '2026-01-05T09:30:00.000Z';

function seedMosque(fields: Partial<Mosque> & Pick<Mosque, 'mosque_id' | 'name'>): Mosque {
  return {
    name_ar: null,
    google_maps_url: null,
    languages: ['en'],
    ID_token: null,
    active: true,
    broadcast_status: 'inactive',
    latitude: null,
    longitude: null,
    timezone: null,
    city: null,
    district: null,
    country: null,
    country_code: null,
    calculation_method: null,
    fixed_jumuah_time: null,
    created_at: SEED_TIME,
    updated_at: SEED_TIME,
    ...fields,
  };
}

function seedMosques(): Mosque[] {
  return [
    seedMosque({
      mosque_id: 'lcm4r8k2p1',
      name: 'London Central Mosque',
      name_ar: 'مسجد لندن المركزي',
      google_maps_url: 'https://www.google.com/maps/place/London+Central+Mosque/@51.5287,-0.1636,17z',
      languages: ['en', 'ar'],
      ID_token: 'https://streams.example.com/live/london-central.m3u8',
      latitude: 51.5287,
      longitude: -0.1636,
      timezone: 'Europe/London',
      city: 'London',
      district: 'Westminster',
      country: 'United Kingdom',
      country_code: 'GB',
    }),
    seedMosque({ mosque_id: 'elm7q2w9z3', name: 'East London Mosque', languages: ['en', 'bn'], ID_token: 'UCeastlondonmosque' }),
    seedMosque({
      mosque_id: 'azh3c5v8n6',
      name: 'Al-Azhar Mosque',
      name_ar: 'الجامع الأزهر',
      languages: ['ar'],
      active: false,
      broadcast_status: 'ended',
      latitude: 30.0458,
      longitude: 31.2625,
      timezone: 'Africa/Cairo',
      city: 'Cairo',
      district: 'El Darb El Ahmar',
      country: 'Egypt',
      country_code: 'EG',
      fixed_jumuah_time: '12:00',
    }),
  ];
}

const worlds = new WeakMap<MockStore, Mosque[]>();

/** The mock mosques of the current store (tests may read and replace them). */
export function mockMosques(): Mosque[] {
  let mosques = worlds.get(store);
  if (!mosques) {
    mosques = seedMosques();
    worlds.set(store, mosques);
  }
  return mosques;
}

export function setMockMosques(mosques: Mosque[]): void {
  worlds.set(store, mosques);
}

function newId(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  for (;;) {
    const id = Array.from({ length: 10 }, () => alphabet[Math.floor(Math.random() * alphabet.length)]).join('');
    if (!mockMosques().some((mosque) => mosque.mosque_id === id)) return id;
  }
}

const distanceDeg = (place: Place, latitude: number, longitude: number) => Math.hypot(place.latitude - latitude, place.longitude - longitude);

function nearestPlace(latitude: number, longitude: number, withinDegrees: number): Place | null {
  const sorted = [...PLACES].sort((a, b) => distanceDeg(a, latitude, longitude) - distanceDeg(b, latitude, longitude));
  return sorted[0] && distanceDeg(sorted[0], latitude, longitude) <= withinDegrees ? sorted[0] : null;
}

/** The zone of the nearest known place, else a fixed offset from the longitude. */
function timeZoneAt(latitude: number, longitude: number): string {
  const place = nearestPlace(latitude, longitude, 5);
  if (place) return place.timezone;
  const hours = Math.round(longitude / 15);
  return hours === 0 ? 'UTC' : `Etc/GMT${hours > 0 ? '-' : '+'}${Math.abs(hours)}`;
}

const NUMBER = String.raw`(-?\d{1,3}(?:\.\d+)?)`;
const LINK_PATTERNS = [new RegExp(String.raw`!3d${NUMBER}!4d${NUMBER}`), new RegExp(String.raw`/@${NUMBER},${NUMBER}`), new RegExp(String.raw`[?&](?:q|query|ll)=${NUMBER}(?:,|%2C)\s*${NUMBER}`)];

function readLink(url: string): ExtractionResult {
  const base = { mosque_id: null, google_maps_url: url, stored: false };
  if (/(?:maps\.app\.goo\.gl|goo\.gl\/maps)\//i.test(url)) {
    const { latitude, longitude } = SHORT_LINK_LANDING;
    return { ...base, success: true, latitude, longitude, timezone_guess: timeZoneAt(latitude, longitude), extraction_method: 'map_link_redirect' };
  }
  for (const pattern of LINK_PATTERNS) {
    const match = pattern.exec(url);
    if (match) {
      const latitude = Number(match[1]);
      const longitude = Number(match[2]);
      return { ...base, success: true, latitude, longitude, timezone_guess: timeZoneAt(latitude, longitude), extraction_method: 'map_link' };
    }
  }
  return { ...base, success: false, latitude: null, longitude: null, timezone_guess: null, extraction_method: null, error: 'No coordinates found in the map link' };
}

function geocodeAt(latitude: number, longitude: number): GeocodeResult {
  const place = nearestPlace(latitude, longitude, 0.5);
  return place
    ? { city: place.city, district: place.district, country: place.country, country_code: place.country_code, timezone: place.timezone }
    : { city: null, district: null, country: null, country_code: null, timezone: timeZoneAt(latitude, longitude) };
}

/** Minutes the zone is ahead of UTC at `instant`. */
function offsetMinutes(zone: string, instant: Date): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric' }).formatToParts(instant);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return (Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute')) - Math.floor(instant.getTime() / 60_000) * 60_000) / 60_000;
}

const clock = (date: Date, zone: string) => new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(date);

function prayerTime(mosque: Mosque, now = new Date()): PrayerTimeRecord | null {
  const zone = mosque.timezone;
  if (!zone || (mosque.fixed_jumuah_time === null && (mosque.latitude === null || mosque.longitude === null))) return null;
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

/** A body that fails its schema: 400 with the first problem, as the server answers. */
function parse<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> | Response {
  const result = schema.safeParse(body);
  return result.success ? result.data : errorResponse(400, result.error.issues[0]?.message ?? 'Invalid request');
}

/** Only the fields a body names: an absent field must not overwrite a default or a stored value. */
const defined = <T extends object>(body: T) => Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined)) as Partial<T>;

function findMosque(id: unknown): Mosque | undefined {
  return mockMosques().find((mosque) => mosque.mosque_id === id);
}

export const configHandlers = [
  http.get('/api/config/mosques', ({ request }) => {
    const actor = authorize(request);
    if (actor instanceof Response) return actor;
    return HttpResponse.json({ success: true as const, data: { mosques: mockMosques() } });
  }),

  http.get('/api/config/mosques/new-id', ({ request }) => {
    const actor = authorize(request);
    if (actor instanceof Response) return actor;
    return HttpResponse.json({ success: true as const, data: { mosque_id: newId() } });
  }),

  http.get('/api/config/mosques/:mosque_id', ({ request, params }) => {
    const actor = authorize(request);
    if (actor instanceof Response) return actor;
    const mosque = findMosque(params.mosque_id);
    return mosque ? HttpResponse.json({ success: true as const, data: mosque }) : errorResponse(404, `Mosque ${String(params.mosque_id)} not found`);
  }),

  http.post('/api/config/mosques', async ({ request }) => {
    const actor = authorize(request);
    if (actor instanceof Response) return actor;
    const body = parse(mosqueCreateRequestSchema, await readJson(request));
    if (body instanceof Response) return body;
    const id = body.mosque_id ?? newId();
    if (findMosque(id)) return errorResponse(409, `Mosque ${id} already exists`);
    const located = body.latitude != null && body.longitude != null;
    const now = nowIso();
    const mosque = seedMosque({
      ...defined(body),
      mosque_id: id,
      name: body.name,
      timezone: body.timezone ?? (located ? timeZoneAt(body.latitude ?? 0, body.longitude ?? 0) : null),
      country_code: body.country_code ?? null,
      created_at: now,
      updated_at: now,
    });
    mockMosques().push(mosque);
    return HttpResponse.json({ success: true as const, data: mosque }, { status: 201 });
  }),

  http.put('/api/config/mosques/:mosque_id', async ({ request, params }) => {
    const actor = authorize(request);
    if (actor instanceof Response) return actor;
    const body = parse(mosqueUpdateRequestSchema, await readJson(request));
    if (body instanceof Response) return body;
    const mosque = findMosque(params.mosque_id);
    if (!mosque) return errorResponse(404, `Mosque ${String(params.mosque_id)} not found`);
    if (body.mosque_id !== undefined && body.mosque_id !== mosque.mosque_id) return errorResponse(400, 'Mosque ID cannot be changed');
    const next: Mosque = { ...mosque, ...defined(body), mosque_id: mosque.mosque_id, updated_at: nowIso() };
    if ((next.latitude === null) !== (next.longitude === null)) return errorResponse(400, 'Latitude and longitude must be given together');
    Object.assign(mosque, next);
    return HttpResponse.json({ success: true as const, data: mosque });
  }),

  http.delete('/api/config/mosques/:mosque_id', ({ request, params }) => {
    const actor = authorize(request);
    if (actor instanceof Response) return actor;
    const id = String(params.mosque_id);
    if (!findMosque(id)) return errorResponse(404, `Mosque ${id} not found`);
    setMockMosques(mockMosques().filter((mosque) => mosque.mosque_id !== id));
    return HttpResponse.json({ success: true as const, message: `Mosque ${id} deleted successfully`, data: { mosque_id: id } });
  }),

  http.get('/api/config/coordinates', ({ request }) => {
    const actor = authorize(request);
    if (actor instanceof Response) return actor;
    const coordinates: CoordinatesRecord[] = mockMosques().flatMap((mosque) =>
      mosque.latitude !== null && mosque.longitude !== null
        ? [{ mosque_id: mosque.mosque_id, latitude: mosque.latitude, longitude: mosque.longitude, timezone: mosque.timezone, extraction_method: mosque.google_maps_url ? 'map_link' : 'manual' }]
        : [],
    );
    return HttpResponse.json({ success: true as const, data: { coordinates } });
  }),

  http.post('/api/config/coordinates/extract', async ({ request }) => {
    const actor = authorize(request);
    if (actor instanceof Response) return actor;
    const body = parse(extractRequestSchema, await readJson(request));
    if (body instanceof Response) return body;
    const extraction_results = body.urls.map((entry) => ({ ...readLink(entry.google_maps_url), mosque_id: entry.mosque_id || null }));
    return HttpResponse.json({ success: true as const, data: { extraction_results } });
  }),

  http.post('/api/config/geocode', async ({ request }) => {
    const actor = authorize(request);
    if (actor instanceof Response) return actor;
    const body = parse(geocodeRequestSchema, await readJson(request));
    if (body instanceof Response) return body;
    return HttpResponse.json({ success: true as const, data: geocodeAt(body.latitude, body.longitude) });
  }),

  http.get('/api/config/prayer-times', ({ request }) => {
    const actor = authorize(request);
    if (actor instanceof Response) return actor;
    const prayer_times = mockMosques().flatMap((mosque) => prayerTime(mosque) ?? []);
    return HttpResponse.json({ success: true as const, data: { prayer_times } });
  }),

  http.post('/api/config/generate', async ({ request }) => {
    const actor = authorize(request);
    if (actor instanceof Response) return actor;
    const body = parse(generateRequestSchema, await readJson(request));
    if (body instanceof Response) return body;
    const missing = body.mosque_ids.filter((id) => !findMosque(id));
    if (missing.length > 0) return errorResponse(404, `Mosque${missing.length > 1 ? 's' : ''} not found: ${missing.join(', ')}`);
    const selected = body.mosque_ids.length > 0 ? mockMosques().filter((m) => body.mosque_ids.includes(m.mosque_id)) : mockMosques();
    const recordings: RecordingConfig[] = [];
    const skipped: { mosque_id: string; reason: string }[] = [];
    for (const mosque of selected) {
      if (!mosque.active) {
        if (body.mosque_ids.length > 0) skipped.push({ mosque_id: mosque.mosque_id, reason: 'Mosque is disabled' });
      } else if (!mosque.ID_token) {
        skipped.push({ mosque_id: mosque.mosque_id, reason: 'Mosque has no stream identifier (ID_token)' });
      } else {
        const prayer = prayerTime(mosque);
        recordings.push({
          url: /^(https?|rtmps?|rtsp|srt):\/\//i.test(mosque.ID_token) ? mosque.ID_token : STREAM_URL_TEMPLATE.replace('{id}', encodeURIComponent(mosque.ID_token)),
          duration: body.duration,
          width: body.width,
          height: body.height,
          method: body.method,
          ...(body.method === 'api' && body.api_base_url ? { api_base_url: body.api_base_url } : {}),
          mosque_id: mosque.mosque_id,
          mosque_name: mosque.name,
          friday_prayer: prayer?.friday_prayer ?? null,
          recording_start: prayer?.recording_start ?? null,
          timezone: prayer?.timezone ?? mosque.timezone,
        });
      }
    }
    return HttpResponse.json({ success: true as const, data: { total_configs: recordings.length, recordings, skipped } });
  }),
];
