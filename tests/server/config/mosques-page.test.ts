import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mosquesListResponseSchema } from '../../../contract/mosques';
import { errorBodySchema } from '../../../contract/common';
import { createTestApp, type TestApp } from '../helpers/test-app';

/** Twelve mosques with names, places and states to search, sort and filter by. */
const FLEET = [
  { mosque_id: 'aaaa000001', name: 'Al-Noor', city: 'Leeds', country: 'United Kingdom', active: true },
  { mosque_id: 'aaaa000002', name: 'al-Aqsa', city: 'Bradford', country: 'United Kingdom', active: false },
  { mosque_id: 'aaaa000003', name: 'Süleymaniye', city: 'İstanbul', country: 'Türkiye', active: true },
  {
    mosque_id: 'aaaa000004',
    name: 'Faisal',
    city: 'Islamabad',
    country: 'Pakistan',
    active: true,
    broadcast_status: 'playing',
  },
  { mosque_id: 'aaaa000005', name: 'Badshahi', city: 'Lahore', country: 'Pakistan', active: false },
  { mosque_id: 'aaaa000006', name: '100% Halal Centre', city: null, country: 'Canada', active: true },
  {
    mosque_id: 'aaaa000007',
    name: 'Masjid_An-Nabawi',
    city: 'Medina',
    country: 'Saudi Arabia',
    active: true,
    name_ar: 'المسجد النبوي',
  },
  { mosque_id: 'aaaa000008', name: 'East London', city: 'London', country: 'United Kingdom', active: true },
  { mosque_id: 'aaaa000009', name: 'Hassan II', city: 'Casablanca', country: 'Morocco', active: true },
  { mosque_id: 'aaaa000010', name: 'Istiqlal', city: 'Jakarta', country: 'Indonesia', active: false },
  {
    mosque_id: 'aaaa000011',
    name: 'Central',
    city: 'Leeds',
    country: 'United Kingdom',
    active: true,
    broadcast_status: 'ended',
  },
  { mosque_id: 'aaaa000012', name: 'Zayed', city: 'Abu Dhabi', country: 'United Arab Emirates', active: true },
];

describe('GET /api/config/mosques: search, sort, filter and pages', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp();
    token = await t.login();
    for (const mosque of FLEET) {
      const response = await t.request({
        method: 'POST',
        url: '/api/config/mosques',
        token,
        payload: { languages: ['en'], ...mosque },
      });
      expect(response.statusCode, response.body).toBe(201);
      t.clock.advance(1000);
    }
  });
  afterAll(() => t.close());

  const page = async (query: string) => {
    const response = await t.request({ method: 'GET', url: `/api/config/mosques?${query}`, token });
    expect(response.statusCode, response.body).toBe(200);
    const { mosques, total } = mosquesListResponseSchema.parse(response.json()).data;
    return { ids: mosques.map((m) => m.mosque_id.slice(-2)), names: mosques.map((m) => m.name), total };
  };

  it('keeps the reference shape without parameters: every mosque, oldest first, no total', async () => {
    const response = await t.request({ method: 'GET', url: '/api/config/mosques', token });
    const body = mosquesListResponseSchema.parse(response.json());
    expect(body.data.mosques).toHaveLength(12);
    expect(body.data.total).toBeUndefined();
  });

  it('answers a page and the count of every match', async () => {
    expect(await page('limit=5')).toEqual({ ids: ['01', '02', '03', '04', '05'], names: expect.any(Array), total: 12 });
    expect((await page('limit=5&offset=10')).ids).toEqual(['11', '12']);
    expect((await page('offset=20')).ids).toEqual([]);
  });

  it('searches names in either script, ids, cities and countries, ignoring case', async () => {
    expect((await page('q=AL-')).names.sort()).toEqual(['Al-Noor', 'al-Aqsa']);
    expect((await page('q=pakistan')).ids).toEqual(['04', '05']);
    expect((await page('q=leeds')).total).toBe(2);
    expect((await page('q=000012')).names).toEqual(['Zayed']);
    expect((await page(`q=${encodeURIComponent('النبوي')}`)).ids).toEqual(['07']);
  });

  it('takes % and _ as letters, not wildcards', async () => {
    expect((await page('q=100%25')).ids).toEqual(['06']);
    expect((await page('q=d_a')).ids).toEqual(['07']);
    expect((await page('q=%25')).ids).toEqual(['06']);
  });

  it('sorts by a column in either direction, ignoring case, with empty values last', async () => {
    const byName = (await page('sort=name&limit=100')).names;
    expect(byName.slice(0, 3)).toEqual(['100% Halal Centre', 'al-Aqsa', 'Al-Noor']);
    expect((await page('sort=name&order=desc&limit=3')).names).toEqual(['Zayed', 'Süleymaniye', 'Masjid_An-Nabawi']);
    expect((await page('sort=city&limit=100')).ids.at(-1)).toBe('06');
    expect((await page('sort=city&order=desc&limit=100')).ids.at(-1)).toBe('06');
    // Ties go by id, in the same direction.
    expect((await page('sort=country&q=united%20kingdom')).ids).toEqual(['01', '02', '08', '11']);
  });

  it('filters by state, broadcast status and time zone, together with a search', async () => {
    expect((await page('active=false')).ids).toEqual(['02', '05', '10']);
    expect((await page('active=true&q=pakistan')).ids).toEqual(['04']);
    expect((await page('broadcast_status=ended')).ids).toEqual(['11']);
    expect((await page('timezone=Europe/London')).total).toBe(0);
  });

  it('answers only the mosques named by id, with the other filters, and none for an empty list', async () => {
    expect(await page('mosque_ids=aaaa000012,aaaa000003,zzzz000000&sort=name')).toEqual({
      ids: ['03', '12'],
      names: ['Süleymaniye', 'Zayed'],
      total: 2,
    });
    expect((await page('mosque_ids=aaaa000002,aaaa000003&active=false')).ids).toEqual(['02']);
    expect(await page('mosque_ids=')).toEqual({ ids: [], names: [], total: 0 });
  });

  it('refuses a parameter it does not know, an unknown sort and an oversized page with the field named', async () => {
    for (const query of [
      'sort=password',
      'order=up',
      'limit=0',
      'limit=5000',
      'active=yes',
      'colour=red',
      `q=${'x'.repeat(101)}`,
    ]) {
      const response = await t.request({ method: 'GET', url: `/api/config/mosques?${query}`, token });
      expect(response.statusCode, query).toBe(400);
      expect(errorBodySchema.parse(response.json()).detail.length, query).toBeGreaterThan(0);
    }
  });
});

describe('POST /api/config/mosques/bulk', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp();
    token = await t.login();
    for (const mosque of FLEET.slice(0, 5)) {
      expect(
        (
          await t.request({
            method: 'POST',
            url: '/api/config/mosques',
            token,
            payload: { languages: ['en'], ...mosque },
          })
        ).statusCode,
      ).toBe(201);
    }
  });
  afterAll(() => t.close());

  const bulk = (payload: Record<string, unknown>, as = token) =>
    t.request({ method: 'POST', url: '/api/config/mosques/bulk', token: as, payload });
  const activeIds = async () => {
    const list = mosquesListResponseSchema.parse(
      (await t.request({ method: 'GET', url: '/api/config/mosques?active=true', token })).json(),
    );
    return list.data.mosques.map((m) => m.mosque_id.slice(-2));
  };

  it('needs a session', async () => {
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/api/config/mosques/bulk',
          payload: { action: 'delete', mosque_ids: ['aaaa000001'] },
        })
      ).statusCode,
    ).toBe(401);
  });

  it('deactivates and activates many at once, counting those already so as done and naming the missing', async () => {
    const off = await bulk({
      action: 'deactivate',
      mosque_ids: ['aaaa000001', 'aaaa000002', 'aaaa000003', 'zzzz000000'],
    });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toEqual({
      success: true,
      message: '3 mosques deactivated',
      data: { action: 'deactivate', done: ['aaaa000001', 'aaaa000002', 'aaaa000003'], missing: ['zzzz000000'] },
    });
    expect(await activeIds()).toEqual(['04']);
    expect((await bulk({ action: 'activate', mosque_ids: ['aaaa000001'] })).json().message).toBe('1 mosque activated');
    expect(await activeIds()).toEqual(['01', '04']);
  });

  it('records each change in the activity log, not a mosque that was already so', async () => {
    const activity = await t.request({ method: 'GET', url: '/api/activity?limit=100', token });
    const actions = (activity.json().data.entries as { action: string; target: { id: string } }[]).filter(
      (e) => e.action === 'mosque.update',
    );
    // aaaa000002 was inactive already: done, but nothing changed to record.
    expect(actions.map((e) => e.target.id).sort()).toEqual(['aaaa000001', 'aaaa000001', 'aaaa000003']);
  });

  it('deletes many, and a second delete of the same finds them missing', async () => {
    const first = await bulk({ action: 'delete', mosque_ids: ['aaaa000004', 'aaaa000005'] });
    expect(first.json().data).toEqual({ action: 'delete', done: ['aaaa000004', 'aaaa000005'], missing: [] });
    expect(first.json().message).toBe('2 mosques deleted');
    const again = await bulk({ action: 'delete', mosque_ids: ['aaaa000004'] });
    expect(again.json().data).toEqual({ action: 'delete', done: [], missing: ['aaaa000004'] });
    expect(
      mosquesListResponseSchema.parse((await t.request({ method: 'GET', url: '/api/config/mosques', token })).json())
        .data.mosques,
    ).toHaveLength(3);
  });

  it('refuses an empty list, a repeated id, a bad id and an unknown action, changing nothing', async () => {
    for (const payload of [
      { action: 'delete', mosque_ids: [] },
      { action: 'delete', mosque_ids: ['aaaa000001', 'aaaa000001'] },
      { action: 'delete', mosque_ids: ['NOT-AN-ID'] },
      { action: 'explode', mosque_ids: ['aaaa000001'] },
    ]) {
      expect((await bulk(payload)).statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect(
      mosquesListResponseSchema.parse((await t.request({ method: 'GET', url: '/api/config/mosques', token })).json())
        .data.mosques,
    ).toHaveLength(3);
  });
});
