import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateResponseSchema, recordingConfigFileSchema } from '../../../contract/mosques';
import { ConfigError, loadConfig } from '../../../server/config';
import { createTestApp, type TestApp } from '../helpers/test-app';

describe('POST /api/config/generate', () => {
  let t: TestApp;
  let token: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp(); // Monday 2026-11-23 09:00 UTC
    token = await t.login();
    const create = async (key: string, payload: Record<string, unknown>) => {
      const response = await t.request({
        method: 'POST',
        url: '/api/config/mosques',
        token,
        payload: { languages: ['en'], ...payload },
      });
      expect(response.statusCode).toBe(201);
      ids[key] = response.json().data.mosque_id;
      t.clock.advance(1000); // distinct created_at: the list order is the creation order
    };
    await create('mecca', { name: 'Masjid al-Haram', ID_token: 'UCmecca123', latitude: 21.4225, longitude: 39.8262 });
    await create('london', {
      name: 'East London Mosque',
      ID_token: 'https://live.example.org/elm/index.m3u8',
      latitude: 51.5175,
      longitude: -0.0653,
    });
    await create('off', { name: 'Disabled', ID_token: 'UCoff', active: false, latitude: 30.0457, longitude: 31.2627 });
    await create('nostream', { name: 'No stream', latitude: 30.0457, longitude: 31.2627 });
    await create('nocoords', { name: 'No coordinates', ID_token: 'rtmp://media.example.org/live/x' });
  });
  afterAll(() => t.close());

  const generate = (payload: Record<string, unknown>) =>
    t.request({ method: 'POST', url: '/api/config/generate', token, payload });

  it('needs a session', async () => {
    expect((await t.request({ method: 'POST', url: '/api/config/generate', payload: {} })).statusCode).toBe(401);
  });

  it('with no selection, makes one launch config per active mosque with a stream, with the defaults', async () => {
    const response = await generate({});
    expect(response.statusCode).toBe(200);
    const { data } = generateResponseSchema.parse(response.json());
    expect(data.total_configs).toBe(3);
    expect(data.recordings).toEqual([
      {
        url: 'https://www.youtube.com/channel/UCmecca123/live',
        duration: 7200,
        width: 1080,
        height: 576,
        method: 'api',
        mosque_id: ids.mecca,
        mosque_name: 'Masjid al-Haram',
        friday_prayer: '2026-11-27T09:08:00.000Z',
        recording_start: '2026-11-27T08:48:00.000Z',
        timezone: 'Asia/Riyadh',
      },
      {
        url: 'https://live.example.org/elm/index.m3u8',
        duration: 7200,
        width: 1080,
        height: 576,
        method: 'api',
        mosque_id: ids.london,
        mosque_name: 'East London Mosque',
        friday_prayer: '2026-11-27T11:49:00.000Z',
        recording_start: '2026-11-27T11:29:00.000Z',
        timezone: 'Europe/London',
      },
      {
        url: 'rtmp://media.example.org/live/x',
        duration: 7200,
        width: 1080,
        height: 576,
        method: 'api',
        mosque_id: ids.nocoords,
        mosque_name: 'No coordinates',
        friday_prayer: null,
        recording_start: null,
        timezone: null,
      },
    ]);
    expect(data.skipped).toEqual([{ mosque_id: ids.nostream, reason: 'Mosque has no stream identifier (ID_token)' }]);
    // The downloaded file (the recordings array) and the whole data object are both valid recording files.
    expect(recordingConfigFileSchema.parse(data.recordings)).toHaveLength(3);
    expect(recordingConfigFileSchema.parse(data)).toHaveLength(3);
  });

  it('honours the settings; api_base_url only for method api', async () => {
    const api = generateResponseSchema.parse(
      (
        await generate({
          mosque_ids: [ids.mecca],
          duration: 3600,
          width: 1280,
          height: 720,
          method: 'api',
          api_base_url: 'https://capture.example.org',
        })
      ).json(),
    ).data;
    expect(api.total_configs).toBe(1);
    expect(api.recordings[0]).toMatchObject({
      duration: 3600,
      width: 1280,
      height: 720,
      method: 'api',
      api_base_url: 'https://capture.example.org',
    });

    const sequential = generateResponseSchema.parse(
      (
        await generate({ mosque_ids: [ids.mecca], method: 'sequential', api_base_url: 'https://capture.example.org' })
      ).json(),
    ).data;
    expect(sequential.recordings[0].method).toBe('sequential');
    expect(sequential.recordings[0]).not.toHaveProperty('api_base_url');
  });

  it('reports selected mosques that produce nothing, and refuses unknown ids', async () => {
    const { data } = generateResponseSchema.parse(
      (await generate({ mosque_ids: [ids.off, ids.nostream, ids.london] })).json(),
    );
    expect(data.total_configs).toBe(1);
    expect(data.recordings[0].mosque_id).toBe(ids.london);
    expect(data.skipped).toEqual([
      { mosque_id: ids.off, reason: 'Mosque is disabled' },
      { mosque_id: ids.nostream, reason: 'Mosque has no stream identifier (ID_token)' },
    ]);
    const unknown = await generate({ mosque_ids: [ids.mecca, 'zzzzzzzzzz'] });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().detail).toBe('Mosque not found: zzzzzzzzzz');
  });

  it.each([
    [{ duration: 10 }, /Duration must be at least 60 seconds/],
    [{ duration: 1.5 }, /duration/],
    [{ method: 'parallel' }, /method/],
    [{ width: 0 }, /width/],
    [{ api_base_url: 'ftp://x.example' }, /API base URL must be an http\(s\) URL/],
    [{ mosque_ids: ['BAD'] }, /mosque_ids/],
    [{ max_workers: 2 }, /max_workers|Unrecognized/i],
  ])('rejects %j with 400', async (payload, detail) => {
    const response = await generate(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().detail).toMatch(detail);
  });
});

describe('STREAM_URL_TEMPLATE', () => {
  it('defaults to the YouTube channel live page and must name {id}', () => {
    expect(loadConfig({}).streamUrlTemplate).toBe('https://www.youtube.com/channel/{id}/live');
    expect(loadConfig({ STREAM_URL_TEMPLATE: 'https://www.youtube.com/@{id}/live' }).streamUrlTemplate).toBe(
      'https://www.youtube.com/@{id}/live',
    );
    expect(() => loadConfig({ STREAM_URL_TEMPLATE: 'https://www.youtube.com/live' })).toThrow(ConfigError);
    expect(() => loadConfig({ MAPS_LINK_RESOLVE_ORIGIN: 'not a url' })).toThrow(
      /MAPS_LINK_RESOLVE_ORIGIN must be a URL/,
    );
  });

  it('builds the stream URL of an id-only token from the template', async () => {
    const t = await createTestApp({ env: { STREAM_URL_TEMPLATE: 'https://streams.example.org/{id}/index.m3u8' } });
    try {
      const token = await t.login();
      await t.request({
        method: 'POST',
        url: '/api/config/mosques',
        token,
        payload: { name: 'M', languages: ['en'], ID_token: 'a b/c' },
      });
      const { data } = generateResponseSchema.parse(
        (await t.request({ method: 'POST', url: '/api/config/generate', token, payload: {} })).json(),
      );
      expect(data.recordings[0].url).toBe('https://streams.example.org/a%20b%2Fc/index.m3u8');
    } finally {
      await t.close();
    }
  });
});
