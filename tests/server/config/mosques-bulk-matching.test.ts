import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mosqueBulkResponseSchema } from '../../../contract/mosque-list';
import { mosquesListResponseSchema } from '../../../contract/mosques';
import { seedMosques } from '../../../testkit/seed-mosques';
import { createTestApp, type TestApp } from '../helpers/test-app';

/** "Select all N matching": one bulk call acts on every mosque a filter matches, on the server. */
describe('POST /api/config/mosques/bulk on a filter', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp();
    token = await t.login();
    // 2,000 seeded ("Mosque <i>") and one the filter must leave alone.
    await seedMosques(t.config.dataDir, 2000, { databaseUrl: t.config.databaseUrl });
    const other = await t.request({
      method: 'POST',
      url: '/api/config/mosques',
      token,
      payload: { languages: ['en'], mosque_id: 'other00001', name: 'Other' },
    });
    expect(other.statusCode, other.body).toBe(201);
  });
  afterAll(() => t.close());

  const bulk = (payload: Record<string, unknown>) =>
    t.request({ method: 'POST', url: '/api/config/mosques/bulk', token, payload });
  const activeCount = async (q: string) =>
    mosquesListResponseSchema.parse(
      (await t.request({ method: 'GET', url: `/api/config/mosques?active=true&limit=1&q=${q}`, token })).json(),
    ).data.total;

  it('refuses a count that is no longer the match, changing nothing', async () => {
    const refused = await bulk({ action: 'deactivate', matching: { q: 'mosque ', active: true }, expected: 1999 });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toBe(
      'The filter now matches 2,000 mosques, not 1,999: nothing was changed; confirm again',
    );
    expect(await activeCount('mosque')).toBe(2000);
  });

  it('deactivates the 2,000 matching mosques in one call, and only them', async () => {
    const response = await bulk({ action: 'deactivate', matching: { q: 'mosque ', active: true }, expected: 2000 });
    expect(response.statusCode, response.body).toBe(200);
    const body = mosqueBulkResponseSchema.parse(response.json());
    expect(body.message).toBe('2,000 mosques deactivated');
    expect(body.data.done).toHaveLength(2000);
    expect(body.data.missing).toEqual([]);
    expect(await activeCount('mosque')).toBe(0);
    expect(await activeCount('other')).toBe(1);
  });

  it('refuses both ids and a filter, and a filter without its confirmed count', async () => {
    for (const payload of [
      { action: 'delete', mosque_ids: ['other00001'], matching: {}, expected: 1 },
      { action: 'delete', matching: { q: 'other' } },
      { action: 'delete', matching: { city: 'x' }, expected: 1 },
    ]) {
      expect((await bulk(payload)).statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect(await activeCount('other')).toBe(1);
  });
});
