import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coordinatesListResponseSchema, extractResponseSchema, type ExtractionResult } from '../../../contract/mosques';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { closedPort, startShortLinkServer } from './short-link-server';
import { scaled } from '../../../testkit/time-scale';

const MECCA_SHORT = 'https://goo.gl/maps/MeccaShort1';
const CAIRO_APP = 'https://maps.app.goo.gl/Cairo2hops';
const LONDON_LONG = 'https://www.google.com/maps/place/East+London+Mosque/@51.5175,-0.0653,17z';

describe('POST /api/config/coordinates/extract and GET /api/config/coordinates', () => {
  let t: TestApp;
  let token: string;
  let server: Awaited<ReturnType<typeof startShortLinkServer>>;

  beforeAll(async () => {
    server = await startShortLinkServer();
    // Short links are resolved against the local stand-in, never the internet. A link's time limit is
    // scaled with the machine's load: on a saturated one, 1.5 s for a loopback redirect ran out.
    t = await createTestApp({
      env: { MAPS_LINK_RESOLVE_ORIGIN: server.origin, MAPS_LINK_TIMEOUT_MS: String(scaled(1500)) },
    });
    token = await t.login();
  });
  afterAll(async () => {
    await t.close();
    await server.close();
  });

  const extract = async (payload: Record<string, unknown>): Promise<ExtractionResult[]> => {
    const response = await t.request({ method: 'POST', url: '/api/config/coordinates/extract', token, payload });
    expect(response.statusCode).toBe(200);
    return extractResponseSchema.parse(response.json()).data.extraction_results;
  };
  const createMosque = async (fields: Record<string, unknown> = {}) => {
    const response = await t.request({
      method: 'POST',
      url: '/api/config/mosques',
      token,
      payload: { name: 'M', languages: ['ar'], ...fields },
    });
    expect(response.statusCode).toBe(201);
    return response.json().data.mosque_id as string;
  };

  it('needs a session and validates its body', async () => {
    expect(
      (await t.request({ method: 'POST', url: '/api/config/coordinates/extract', payload: { urls: [] } })).statusCode,
    ).toBe(401);
    expect((await t.request({ method: 'GET', url: '/api/config/coordinates' })).statusCode).toBe(401);
    const bad = await t.request({
      method: 'POST',
      url: '/api/config/coordinates/extract',
      token,
      payload: { urls: [{ google_maps_url: '' }] },
    });
    expect(bad.statusCode).toBe(400);
    const unknownField = await t.request({
      method: 'POST',
      url: '/api/config/coordinates/extract',
      token,
      payload: { urls: [], extra: 1 },
    });
    expect(unknownField.statusCode).toBe(400);
    const tooMany = await t.request({
      method: 'POST',
      url: '/api/config/coordinates/extract',
      token,
      payload: { urls: Array.from({ length: 201 }, () => ({ google_maps_url: LONDON_LONG })) },
    });
    expect(tooMany.statusCode).toBe(400);
  });

  it('answers each link of a mosque not yet saved, in every form, with a time-zone guess', async () => {
    const results = await extract({
      urls: [
        { mosque_id: '', google_maps_url: LONDON_LONG },
        { google_maps_url: 'https://maps.google.com/?q=-33.9196,151.0766' },
        { google_maps_url: MECCA_SHORT },
        { google_maps_url: CAIRO_APP },
        { google_maps_url: 'not a link' },
      ],
    });
    expect(
      results.map((r) => [r.success, r.latitude, r.longitude, r.timezone_guess, r.extraction_method, r.stored]),
    ).toEqual([
      [true, 51.5175, -0.0653, 'Europe/London', 'map_link', false],
      [true, -33.9196, 151.0766, 'Australia/Sydney', 'map_link', false],
      [true, 21.4224779, 39.8262375, 'Asia/Riyadh', 'map_link_redirect', false],
      [true, 30.0457, 31.2627, 'Africa/Cairo', 'map_link_redirect', false],
      [false, null, null, null, null, false],
    ]);
    expect(results[4].error).toMatch(/No Google Maps link found/);
    expect(results[0].mosque_id).toBeNull();
  });

  it('stores coordinates on a mosque that has none, and lists them as Coordinates records', async () => {
    const id = await createMosque({ google_maps_url: MECCA_SHORT });
    const [result] = await extract({ urls: [{ mosque_id: id, google_maps_url: MECCA_SHORT }] });
    expect(result).toMatchObject({ mosque_id: id, success: true, stored: true, timezone_guess: 'Asia/Riyadh' });
    const mosque = (await t.request({ method: 'GET', url: `/api/config/mosques/${id}`, token })).json().data;
    expect(mosque).toMatchObject({
      latitude: 21.4224779,
      longitude: 39.8262375,
      timezone: 'Asia/Riyadh',
      country_code: 'SA',
    });

    const list = coordinatesListResponseSchema.parse(
      (await t.request({ method: 'GET', url: '/api/config/coordinates', token })).json(),
    );
    expect(list.data.coordinates).toContainEqual({
      mosque_id: id,
      latitude: 21.4224779,
      longitude: 39.8262375,
      timezone: 'Asia/Riyadh',
      extraction_method: 'map_link_redirect',
    });
  });

  it('keeps saved coordinates unless force_refresh', async () => {
    const id = await createMosque({ latitude: 30, longitude: 31, google_maps_url: CAIRO_APP });
    const [kept] = await extract({ urls: [{ mosque_id: id, google_maps_url: CAIRO_APP }] });
    expect(kept).toMatchObject({ success: true, latitude: 30.0457, stored: false });
    expect((await t.request({ method: 'GET', url: `/api/config/mosques/${id}`, token })).json().data.latitude).toBe(30);

    // By id only: answered from what is saved, without resolving.
    const hits = server.hits.length;
    const [saved] = await extract({ mosque_ids: [id] });
    expect(saved).toMatchObject({ mosque_id: id, success: true, latitude: 30, longitude: 31, stored: false });
    expect(server.hits.length).toBe(hits);

    const [forced] = await extract({ mosque_ids: [id], force_refresh: true });
    expect(forced).toMatchObject({ mosque_id: id, success: true, latitude: 30.0457, longitude: 31.2627, stored: true });
    const record = coordinatesListResponseSchema
      .parse((await t.request({ method: 'GET', url: '/api/config/coordinates', token })).json())
      .data.coordinates.find((c) => c.mosque_id === id);
    expect(record).toEqual({
      mosque_id: id,
      latitude: 30.0457,
      longitude: 31.2627,
      timezone: 'Africa/Cairo',
      extraction_method: 'map_link_redirect',
    });
  });

  it('reports unknown ids and mosques without a link per result', async () => {
    const bare = await createMosque();
    const results = await extract({ mosque_ids: ['unknown001', bare] });
    expect(results).toMatchObject([
      { mosque_id: 'unknown001', success: false, error: 'Mosque unknown001 not found' },
      { mosque_id: bare, success: false, error: `Mosque ${bare} has no map link` },
    ]);
  });

  it('with neither links nor ids, extracts every mosque that has a link and no coordinates', async () => {
    const pending = await createMosque({ google_maps_url: LONDON_LONG });
    const results = await extract({});
    const mine = results.find((r) => r.mosque_id === pending);
    expect(mine).toMatchObject({ success: true, stored: true, latitude: 51.5175 });
    expect(results.every((r) => r.success || r.error)).toBe(true);
  });

  it('marks coordinates typed by hand as manual', async () => {
    const id = await createMosque({ latitude: 24.8122, longitude: 67.0674 });
    const list = coordinatesListResponseSchema.parse(
      (await t.request({ method: 'GET', url: '/api/config/coordinates', token })).json(),
    ).data.coordinates;
    expect(list.find((c) => c.mosque_id === id)).toEqual({
      mosque_id: id,
      latitude: 24.8122,
      longitude: 67.0674,
      timezone: 'Asia/Karachi',
      extraction_method: 'manual',
    });
    const fromLink = await createMosque({ latitude: 51.5175, longitude: -0.0653, google_maps_url: LONDON_LONG });
    const again = coordinatesListResponseSchema.parse(
      (await t.request({ method: 'GET', url: '/api/config/coordinates', token })).json(),
    ).data.coordinates;
    expect(again.find((c) => c.mosque_id === fromLink)?.extraction_method).toBe('map_link');
  });
});

describe('extraction without a network', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { MAPS_LINK_RESOLVE_ORIGIN: await closedPort() } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('fails each short link with a clear message and still answers the long ones', async () => {
    const token = await t.login();
    const response = await t.request({
      method: 'POST',
      url: '/api/config/coordinates/extract',
      token,
      payload: { urls: [{ google_maps_url: 'https://maps.app.goo.gl/Anything' }, { google_maps_url: LONDON_LONG }] },
    });
    expect(response.statusCode).toBe(200);
    const [short, long] = extractResponseSchema.parse(response.json()).data.extraction_results;
    expect(short).toMatchObject({ success: false, latitude: null, longitude: null, timezone_guess: null });
    expect(short.error).toBe(
      'Network unavailable: could not reach maps.app.goo.gl to resolve the map link (ECONNREFUSED)',
    );
    expect(long).toMatchObject({
      success: true,
      latitude: 51.5175,
      longitude: -0.0653,
      timezone_guess: 'Europe/London',
    });
  });
});
