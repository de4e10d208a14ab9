import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mosquesListResponseSchema } from '../../../contract/mosques';
import { buildApp, type App } from '../../../server/app';
import { MosquesRepository } from '../../../server/modules/mosques/repository';
import { createTestApp, type TestApp } from '../helpers/test-app';

/** GET /api/config/mosques is served from one read until a mosque changes. */
describe('the mosque list body', () => {
  let t: TestApp;
  let token: string;
  let second: App | undefined;
  let reads: ReturnType<typeof vi.spyOn>;

  beforeEach(async () => {
    reads = vi.spyOn(MosquesRepository.prototype, 'list');
    t = await createTestApp();
    token = await t.login();
  });
  afterEach(async () => {
    await second?.close();
    second = undefined;
    await t.close();
    vi.useRealTimers();
  });

  const names = async (app: App = t.app) => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/config/mosques',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    return mosquesListResponseSchema.parse(response.json()).data.mosques.map((m) => m.name);
  };
  const write = async (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => {
    const response = await t.request({ method, url, token, payload });
    expect(response.statusCode).toBeLessThan(300);
  };

  it('reads the database once for repeated calls, and shows every change at once', async () => {
    await write('POST', '/api/config/mosques', { mosque_id: 'first00001', name: 'First', languages: ['en'] });
    reads.mockClear();
    expect(await names()).toEqual(['First']);
    expect(await names()).toEqual(['First']);
    expect(reads).toHaveBeenCalledTimes(1);

    await write('POST', '/api/config/mosques', { mosque_id: 'second0001', name: 'Second', languages: ['en'] });
    expect(await names()).toEqual(['First', 'Second']);
    await write('PUT', '/api/config/mosques/first00001', { name: 'First Renamed' });
    expect(await names()).toEqual(['First Renamed', 'Second']);
    await write('DELETE', '/api/config/mosques/second0001');
    expect(await names()).toEqual(['First Renamed']);
  });

  it('gives an edited mosque its new prayer time at once', async () => {
    const prayerTime = async () => {
      const response = await t.request({ method: 'GET', url: '/api/config/prayer-times', token });
      return response
        .json<{ data: { prayer_times: { prayer_time: string }[] } }>()
        .data.prayer_times.map((p) => p.prayer_time);
    };
    await write('POST', '/api/config/mosques', {
      mosque_id: 'paris00001',
      name: 'Paris',
      languages: ['en'],
      timezone: 'Europe/Paris',
      fixed_jumuah_time: '13:00',
    });
    expect(await prayerTime()).toEqual(['13:00']);
    expect(await prayerTime()).toEqual(['13:00']);
    await write('PUT', '/api/config/mosques/paris00001', { fixed_jumuah_time: '13:30' });
    expect(await prayerTime()).toEqual(['13:30']);
  });

  it('shows a change made on another server on the same database within a second', async () => {
    second = await buildApp(t.config, { logger: false, clock: t.clock });
    await second.ready();
    // The bound is wall time (performance.now), not the app's clock: only that is faked, and moved.
    vi.useFakeTimers({ toFake: ['performance'] });
    expect(await names(second)).toEqual([]);
    await write('POST', '/api/config/mosques', { mosque_id: 'elsewhere1', name: 'Elsewhere', languages: ['en'] });
    vi.advanceTimersByTime(900);
    expect(await names(second)).toEqual([]);
    vi.advanceTimersByTime(200);
    expect(await names(second)).toEqual(['Elsewhere']);
  });
});
