import { HttpResponse } from 'msw';
import { type CoordinatesRecord, type Mosque } from '../../../contract/mosques';
import {
  DEFAULT_STREAM_URL_TEMPLATE,
  mosquesNotFoundMessage,
  recordingConfigsFor,
} from '../../../contract/recording-configs';
import { bulkDoneMessage, isPageQuery, matchChangedMessage } from '../../../contract/mosque-list';
import { configRoutes, mosqueRoutes } from '../../../contract/routes/mosques';
import { readyToRecord } from '../../../contract/ready-to-record';
import { mock } from '../endpoint';
import { matchingMosques, mosquesPage } from '../mosque-page';
import { errorResponse } from '../http';
import { nowIso, store, type MockStore } from '../store';
import { geocodeAt, prayerTime, readLink, timeZoneAt } from './config-places';
import { listedJobs } from './scheduler';

/*
 * Mosques, coordinates, prayer times and recording configurations, answered as the server does
 * (bodies validated by the contract's schemas). The mosques live beside the shared store and are
 * seeded again whenever resetStore() replaces it. Map links, places and prayer times come from
 * the rough stand-ins of ./config-places.
 */

const SEED_TIME = '2026-01-05T09:30:00.000Z';

export function seedMosque(fields: Partial<Mosque> & Pick<Mosque, 'mosque_id' | 'name'>): Mosque {
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
    seedMosque({
      mosque_id: 'elm7q2w9z3',
      name: 'East London Mosque',
      languages: ['en', 'bn'],
      ID_token: 'UCeastlondonmosque',
    }),
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

/** Only the fields a body names: an absent field must not overwrite a default or a stored value. */
const defined = <T extends object>(body: T) =>
  Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined)) as Partial<T>;

function findMosque(id: unknown): Mosque | undefined {
  return mockMosques().find((mosque) => mosque.mosque_id === id);
}

export const configHandlers = [
  mock(mosqueRoutes.list, ({ query }) => {
    const data = isPageQuery(query) ? mosquesPage(mockMosques(), query) : { mosques: mockMosques() };
    return HttpResponse.json({ success: true as const, data });
  }),

  mock(mosqueRoutes.summary, () => {
    const mosques = mockMosques();
    const times = new Map(mosques.flatMap((mosque) => prayerTime(mosque) ?? []).map((r) => [r.mosque_id, r]));
    const located = new Set(
      mosques.filter((mosque) => mosque.latitude !== null && mosque.longitude !== null).map((m) => m.mosque_id),
    );
    const ready = readyToRecord({ mosques, located, prayerTimes: times, jobs: listedJobs(new Date()) }).length;
    const data = { total: mosques.length, located: located.size, timed: times.size, ready };
    return HttpResponse.json({ success: true as const, data });
  }),

  mock(mosqueRoutes.bulk, ({ body }) => {
    const asked =
      'mosque_ids' in body
        ? body.mosque_ids
        : matchingMosques(mockMosques(), body.matching).map((mosque) => mosque.mosque_id);
    if ('expected' in body && asked.length !== body.expected)
      return errorResponse(409, matchChangedMessage(asked.length, body.expected));
    const ids = new Set(asked);
    const done = mockMosques().filter((mosque) => ids.has(mosque.mosque_id));
    if (body.action === 'delete') setMockMosques(mockMosques().filter((mosque) => !ids.has(mosque.mosque_id)));
    else for (const mosque of done) Object.assign(mosque, { active: body.action === 'activate', updated_at: nowIso() });
    const doneIds = done.map((mosque) => mosque.mosque_id);
    const data = { action: body.action, done: doneIds, missing: asked.filter((id) => !doneIds.includes(id)) };
    return HttpResponse.json({ success: true as const, message: bulkDoneMessage(body.action, doneIds.length), data });
  }),

  mock(mosqueRoutes.newId, () => {
    return HttpResponse.json({ success: true as const, data: { mosque_id: newId() } });
  }),

  mock(mosqueRoutes.get, ({ params }) => {
    const mosque = findMosque(params.mosque_id);
    return mosque
      ? HttpResponse.json({ success: true as const, data: mosque })
      : errorResponse(404, `Mosque ${String(params.mosque_id)} not found`);
  }),

  mock(mosqueRoutes.create, ({ body }) => {
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

  mock(mosqueRoutes.update, ({ params, body }) => {
    const mosque = findMosque(params.mosque_id);
    if (!mosque) return errorResponse(404, `Mosque ${String(params.mosque_id)} not found`);
    if (body.mosque_id !== undefined && body.mosque_id !== mosque.mosque_id)
      return errorResponse(400, 'Mosque ID cannot be changed');
    const next: Mosque = { ...mosque, ...defined(body), mosque_id: mosque.mosque_id, updated_at: nowIso() };
    if ((next.latitude === null) !== (next.longitude === null))
      return errorResponse(400, 'Latitude and longitude must be given together');
    Object.assign(mosque, next);
    return HttpResponse.json({ success: true as const, data: mosque });
  }),

  mock(mosqueRoutes.remove, ({ params }) => {
    const id = String(params.mosque_id);
    if (!findMosque(id)) return errorResponse(404, `Mosque ${id} not found`);
    setMockMosques(mockMosques().filter((mosque) => mosque.mosque_id !== id));
    return HttpResponse.json({
      success: true as const,
      message: `Mosque ${id} deleted successfully`,
      data: { mosque_id: id },
    });
  }),

  mock(configRoutes.coordinates, () => {
    const coordinates: CoordinatesRecord[] = mockMosques().flatMap((mosque) =>
      mosque.latitude !== null && mosque.longitude !== null
        ? [
            {
              mosque_id: mosque.mosque_id,
              latitude: mosque.latitude,
              longitude: mosque.longitude,
              timezone: mosque.timezone,
              extraction_method: mosque.google_maps_url ? 'map_link' : 'manual',
            },
          ]
        : [],
    );
    return HttpResponse.json({ success: true as const, data: { coordinates } });
  }),

  mock(configRoutes.extract, ({ body }) => {
    const extraction_results = body.urls.map((entry) => ({
      ...readLink(entry.google_maps_url),
      mosque_id: entry.mosque_id || null,
    }));
    return HttpResponse.json({ success: true as const, data: { extraction_results } });
  }),

  mock(configRoutes.geocode, ({ body }) =>
    HttpResponse.json({ success: true, data: geocodeAt(body.latitude, body.longitude) }),
  ),

  mock(configRoutes.prayerTimes, ({ query }) => {
    const ids = query.mosque_ids && new Set(query.mosque_ids);
    const chosen = ids ? mockMosques().filter((mosque) => ids.has(mosque.mosque_id)) : mockMosques();
    const prayer_times = chosen.flatMap((mosque) => prayerTime(mosque) ?? []);
    return HttpResponse.json({ success: true as const, data: { prayer_times } });
  }),

  mock(configRoutes.generate, ({ body }) => {
    const chosen = body.mosque_ids.length > 0;
    const selected = chosen
      ? mockMosques().filter((mosque) => body.mosque_ids.includes(mosque.mosque_id))
      : mockMosques();
    const missing = mosquesNotFoundMessage(body.mosque_ids, selected);
    if (missing) return errorResponse(404, missing);
    const data = recordingConfigsFor(selected, body, {
      chosen,
      streamUrlTemplate: DEFAULT_STREAM_URL_TEMPLATE,
      nextFridayPrayer: (mosque) => prayerTime(mosque),
    });
    return HttpResponse.json({ success: true as const, data });
  }),
];
