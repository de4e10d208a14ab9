import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mosqueSchema, MOSQUE_ID_PATTERN, type Mosque } from '../../../contract/mosques';
import { errorBodySchema } from '../../../contract/common';
import { generateMosqueId } from '../../../server/modules/mosques/service';
import { createTestApp, type TestApp } from '../helpers/test-app';

const BASE = { name: 'East London Mosque', languages: ['en', 'bn'] };

describe('mosques CRUD /api/config/mosques', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp();
    token = await t.login();
  });
  afterAll(() => t.close());

  const create = (payload: Record<string, unknown>) =>
    t.request({ method: 'POST', url: '/api/config/mosques', token, payload });
  const update = (id: string, payload: Record<string, unknown>) =>
    t.request({ method: 'PUT', url: `/api/config/mosques/${id}`, token, payload });
  const expectError = (response: { statusCode: number; json: () => unknown }, status: number, detail?: RegExp) => {
    expect(response.statusCode).toBe(status);
    const body = errorBodySchema.parse(response.json());
    if (detail) expect(body.detail).toMatch(detail);
    expect(body.error).toBe(body.detail);
  };

  it('needs a session for every call', async () => {
    for (const [method, url] of [
      ['GET', '/api/config/mosques'],
      ['POST', '/api/config/mosques'],
      ['GET', '/api/config/mosques/new-id'],
      ['PUT', '/api/config/mosques/abcde12345'],
      ['DELETE', '/api/config/mosques/abcde12345'],
    ] as const) {
      expect(
        (await t.request({ method, url, payload: method === 'POST' || method === 'PUT' ? BASE : undefined }))
          .statusCode,
      ).toBe(401);
    }
  });

  it('creates a mosque with a server-generated id and the defaults, and lists it', async () => {
    const response = await create({ ...BASE, name_ar: 'مسجد شرق لندن', ID_token: 'UCabc' });
    expect(response.statusCode).toBe(201);
    const mosque = mosqueSchema.parse(response.json().data);
    expect(mosque.mosque_id).toMatch(MOSQUE_ID_PATTERN);
    expect(mosque).toMatchObject({
      name: 'East London Mosque',
      name_ar: 'مسجد شرق لندن',
      languages: ['en', 'bn'],
      ID_token: 'UCabc',
      active: true,
      broadcast_status: 'inactive',
      latitude: null,
      longitude: null,
      timezone: null,
      calculation_method: null,
      fixed_jumuah_time: null,
      created_at: '2026-11-23T09:00:00.000Z',
    });
    const list = await t.request({ method: 'GET', url: '/api/config/mosques', token });
    expect(list.statusCode).toBe(200);
    expect(list.json().data.mosques.map((m: Mosque) => m.mosque_id)).toContain(mosque.mosque_id);
  });

  it('generates ids of 10 lowercase letters and digits, drawn at random', () => {
    const ids = new Set(Array.from({ length: 2000 }, generateMosqueId));
    expect(ids.size).toBe(2000);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9]{10}$/);
    const letters = new Set([...ids].join(''));
    expect(letters.size).toBe(36);
  });

  it('offers a fresh id for the Add dialog, and accepts it on create', async () => {
    const fresh = await t.request({ method: 'GET', url: '/api/config/mosques/new-id', token });
    expect(fresh.statusCode).toBe(200);
    const id = fresh.json().data.mosque_id as string;
    expect(id).toMatch(MOSQUE_ID_PATTERN);
    const created = await create({ ...BASE, mosque_id: id });
    expect(created.statusCode).toBe(201);
    expect(created.json().data.mosque_id).toBe(id);
  });

  it('refuses a duplicate id with 409 and a malformed one with 400', async () => {
    const first = await create({ ...BASE, mosque_id: 'dup0000001' });
    expect(first.statusCode).toBe(201);
    expectError(await create({ ...BASE, mosque_id: 'dup0000001' }), 409, /dup0000001 already exists/);
    for (const bad of ['ABCDE12345', 'abc', 'abcde123456', 'abcde-1234', 12345]) {
      expectError(await create({ ...BASE, mosque_id: bad }), 400, /mosque_id/);
    }
  });

  it.each([
    [{ languages: ['en'] }, /name/],
    [{ name: '   ', languages: ['en'] }, /Name is required/],
    [{ name: 'M' }, /languages/],
    [{ name: 'M', languages: [] }, /At least one language is required/],
    [{ name: 'M', languages: ['English'] }, /Language codes look like/],
    [{ name: 'M', languages: ['en'], latitude: 90.5, longitude: 0 }, /Latitude must be between -90 and 90/],
    [{ name: 'M', languages: ['en'], latitude: -91, longitude: 0 }, /Latitude must be between -90 and 90/],
    [{ name: 'M', languages: ['en'], latitude: 0, longitude: 180.01 }, /Longitude must be between -180 and 180/],
    [{ name: 'M', languages: ['en'], latitude: 0, longitude: -181 }, /Longitude must be between -180 and 180/],
    [{ name: 'M', languages: ['en'], latitude: 10 }, /Latitude and longitude must be given together/],
    [{ name: 'M', languages: ['en'], latitude: '10', longitude: '20' }, /latitude/],
    [{ name: 'M', languages: ['en'], timezone: 'Mars/Olympus' }, /valid IANA time zone/],
    [{ name: 'M', languages: ['en'], timezone: 'GMT+3; DROP TABLE' }, /valid IANA time zone/],
    [{ name: 'M', languages: ['en'], broadcast_status: 'live' }, /broadcast_status/],
    [{ name: 'M', languages: ['en'], active: 'yes' }, /active/],
    [{ name: 'M', languages: ['en'], calculation_method: 'Sunni' }, /calculation_method/],
    [{ name: 'M', languages: ['en'], fixed_jumuah_time: '1:30 pm' }, /HH:MM/],
    [{ name: 'M', languages: ['en'], fixed_jumuah_time: '24:00' }, /HH:MM/],
    [{ name: 'M', languages: ['en'], created_at: '2026-01-01T00:00:00Z' }, /created_at|Unrecognized/i],
  ])('rejects %j with 400', async (payload, detail) => {
    expectError(await create(payload), 400, detail);
  });

  it('accepts custom language codes, boundary coordinates and every broadcast status; fills the zone from coordinates', async () => {
    const response = await create({
      name: 'Boundary',
      languages: ['en', 'pt-BR', 'ckb', 'en'],
      latitude: -90,
      longitude: 180,
      broadcast_status: 'ended',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().data).toMatchObject({
      languages: ['en', 'pt-BR', 'ckb'],
      latitude: -90,
      longitude: 180,
      broadcast_status: 'ended',
    });
    const located = await create({
      ...BASE,
      latitude: 51.5175,
      longitude: -0.0653,
      fixed_jumuah_time: '13:30',
      calculation_method: 'MoonsightingCommittee',
    });
    expect(located.json().data).toMatchObject({
      timezone: 'Europe/London',
      country_code: 'GB',
      fixed_jumuah_time: '13:30',
      calculation_method: 'MoonsightingCommittee',
    });
    const named = await create({ ...BASE, latitude: 51.5175, longitude: -0.0653, timezone: 'UTC' });
    expect(named.json().data.timezone).toBe('UTC');
  });

  it('updates only the fields sent, clears with null, and never changes the id', async () => {
    const created = (
      await create({ ...BASE, name_ar: 'x', ID_token: 'UC1', latitude: 51.5175, longitude: -0.0653 })
    ).json().data as Mosque;
    t.clock.advance(60_000);
    const renamed = await update(created.mosque_id, {
      name: 'ELM',
      broadcast_status: 'playing',
      active: false,
      name_ar: '',
    });
    expect(renamed.statusCode).toBe(200);
    const after = mosqueSchema.parse(renamed.json().data);
    expect(after).toMatchObject({
      mosque_id: created.mosque_id,
      name: 'ELM',
      broadcast_status: 'playing',
      active: false,
      name_ar: null,
      languages: ['en', 'bn'],
      ID_token: 'UC1',
      latitude: 51.5175,
      timezone: 'Europe/London',
      created_at: created.created_at,
    });
    expect(after.updated_at > created.updated_at).toBe(true);

    // The edit form may send the id back unchanged, but not another one.
    expect((await update(created.mosque_id, { mosque_id: created.mosque_id, name: 'ELM 2' })).statusCode).toBe(200);
    expectError(
      await update(created.mosque_id, { mosque_id: 'other00001', name: 'x' }),
      400,
      /Mosque ID cannot be changed/,
    );
    expect(
      (await t.request({ method: 'GET', url: `/api/config/mosques/${created.mosque_id}`, token })).json().data.name,
    ).toBe('ELM 2');

    // Moving the mosque moves its zone; clearing coordinates needs both.
    const moved = await update(created.mosque_id, { latitude: 40.7859, longitude: -73.9493 });
    expect(moved.json().data).toMatchObject({ timezone: 'America/New_York', country_code: 'US' });
    expectError(
      await update(created.mosque_id, { latitude: null }),
      400,
      /Latitude and longitude must be given together/,
    );
    const cleared = await update(created.mosque_id, { latitude: null, longitude: null });
    expect(cleared.json().data).toMatchObject({ latitude: null, longitude: null });
  });

  it('validates updates like creates', async () => {
    const id = (await create(BASE)).json().data.mosque_id as string;
    expectError(await update(id, { name: '' }), 400, /Name is required/);
    expectError(await update(id, { languages: [] }), 400, /At least one language is required/);
    expectError(await update(id, { latitude: 100, longitude: 0 }), 400, /Latitude must be between -90 and 90/);
    expectError(await update(id, { timezone: 'Nowhere/City' }), 400, /valid IANA time zone/);
    expectError(await update(id, { created_at: 'x' }), 400);
  });

  it('answers 404 for unknown ids and deletes with the confirmation text', async () => {
    expectError(await update('nosuch0001', { name: 'x' }), 404, /Mosque nosuch0001 not found/);
    expectError(await update('NOT-AN-ID', { name: 'x' }), 404);
    expectError(await t.request({ method: 'DELETE', url: '/api/config/mosques/nosuch0001', token }), 404, /not found/);
    expectError(await t.request({ method: 'GET', url: '/api/config/mosques/nosuch0001', token }), 404);

    const id = (await create(BASE)).json().data.mosque_id as string;
    const deleted = await t.request({ method: 'DELETE', url: `/api/config/mosques/${id}`, token });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({
      success: true,
      message: `Mosque ${id} deleted successfully`,
      data: { mosque_id: id },
    });
    expectError(await t.request({ method: 'DELETE', url: `/api/config/mosques/${id}`, token }), 404);
    // A deleted id may be used again.
    expect((await create({ ...BASE, mosque_id: id })).statusCode).toBe(201);
  });

  it('writes mosque changes to the activity log', async () => {
    const id = (await create({ ...BASE, name: 'Logged' })).json().data.mosque_id as string;
    await update(id, { broadcast_status: 'playing' });
    await t.request({ method: 'DELETE', url: `/api/config/mosques/${id}`, token });
    const entries = (await t.request({ method: 'GET', url: '/api/activity?limit=50', token })).json().data.entries as {
      action: string;
      target: { id: string } | null;
      detail: { changed?: string[] } | null;
      actor: { username: string } | null;
    }[];
    const mine = entries.filter((e) => e.target?.id === id).reverse();
    expect(mine.map((e) => e.action)).toEqual(['mosque.create', 'mosque.update', 'mosque.delete']);
    expect(mine[1].detail?.changed).toEqual(['broadcast_status']);
    expect(mine.every((e) => e.actor?.username === 'admin')).toBe(true);
  });

  it('tells listeners of every change', async () => {
    const seen: string[] = [];
    const off = t.app.ctx.events.on('mosque_changed', (change) => seen.push(`${change.type}:${change.mosque_id}`));
    const id = (await create(BASE)).json().data.mosque_id as string;
    await update(id, { name: 'n' });
    await t.request({ method: 'DELETE', url: `/api/config/mosques/${id}`, token });
    off();
    expect(seen).toEqual([`created:${id}`, `updated:${id}`, `deleted:${id}`]);
  });
});
