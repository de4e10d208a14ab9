import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mosquesSummaryResponseSchema } from '../../../contract/mosque-list';
import { prayerTimesResponseSchema } from '../../../contract/mosques';
import { createTestApp, type TestApp } from '../helpers/test-app';

const STREAM = 'https://streams.example/live.m3u8';
const LONDON = { latitude: 51.5175, longitude: -0.0653 };

describe('GET /api/config/mosques/summary and prayer times of chosen mosques', () => {
  let t: TestApp;
  let token: string;
  const summary = async () => {
    const response = await t.request({ method: 'GET', url: '/api/config/mosques/summary', token });
    expect(response.statusCode, response.body).toBe(200);
    return mosquesSummaryResponseSchema.parse(response.json()).data;
  };

  beforeAll(async () => {
    t = await createTestApp(); // Monday 2026-11-23 09:00 UTC
    token = await t.login();
    const create = async (payload: Record<string, unknown>) => {
      const response = await t.request({
        method: 'POST',
        url: '/api/config/mosques',
        token,
        payload: { languages: ['en'], ...payload },
      });
      expect(response.statusCode, response.body).toBe(201);
    };
    await create({ mosque_id: 'ready00001', name: 'Ready', ID_token: STREAM, ...LONDON });
    await create({ mosque_id: 'ready00002', name: 'Ready too', ID_token: STREAM, ...LONDON });
    await create({ mosque_id: 'inactive01', name: 'Inactive', ID_token: STREAM, active: false, ...LONDON });
    await create({ mosque_id: 'nostream01', name: 'No stream', ...LONDON });
    await create({ mosque_id: 'nowhere001', name: 'Nowhere', ID_token: STREAM });
  });
  afterAll(() => t.close());

  it('is refused without a session', async () => {
    expect((await t.request({ method: 'GET', url: '/api/config/mosques/summary' })).statusCode).toBe(401);
  });

  it('counts the fleet, the located, the timed and the ready mosques', async () => {
    expect(await summary()).toEqual({ total: 5, located: 4, timed: 4, ready: 2 });
  });

  it("leaves out of Ready a mosque whose coming Friday's recording was cancelled", async () => {
    const scheduled = await t.request({
      method: 'POST',
      url: '/api/scheduler/schedule-friday',
      token,
      payload: { mosqueFilter: ['ready00002'] },
    });
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    const cancelled = await t.request({
      method: 'POST',
      url: '/api/scheduler/cancel/friday-ready00002-2026-11-27',
      token,
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(await summary()).toEqual({ total: 5, located: 4, timed: 4, ready: 1 });
  });

  it('answers prayer times for the mosques named, and none for an empty list', async () => {
    const read = async (query: string) => {
      const response = await t.request({ method: 'GET', url: `/api/config/prayer-times${query}`, token });
      expect(response.statusCode, response.body).toBe(200);
      return prayerTimesResponseSchema.parse(response.json()).data.prayer_times.map((record) => record.mosque_id);
    };
    expect(await read('?mosque_ids=ready00001,nowhere001,inactive01')).toEqual(
      expect.arrayContaining(['ready00001', 'inactive01']),
    );
    expect(await read('?mosque_ids=ready00001,nowhere001,inactive01')).toHaveLength(2);
    expect(await read('?mosque_ids=')).toEqual([]);
    expect(await read('')).toHaveLength(4);
  });
});
