import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../../contract/common';
import { instancesPageResponseSchema } from '../../../contract/instance-list';
import type { InstanceState } from '../../../contract/instances';
import { createTestApp, type TestApp } from '../helpers/test-app';

/** Six instances of two mosques and an ad-hoc one, in every state, launched an hour apart (the 6th newest). */
const FLEET: { n: number; mosque: 'noor' | 'aqsa' | null; state: InstanceState; type: string }[] = [
  { n: 1, mosque: 'noor', state: 'terminated', type: 't3.small' },
  { n: 2, mosque: 'aqsa', state: 'stopped', type: 'local' },
  { n: 3, mosque: null, state: 'running', type: 'local' },
  { n: 4, mosque: 'noor', state: 'running', type: 't3.micro' },
  { n: 5, mosque: 'aqsa', state: 'pending', type: 'local' },
  { n: 6, mosque: 'noor', state: 'stopping', type: 'local' },
];

describe('GET /api/instances/page: search, state filter, sort and pages', () => {
  let t: TestApp;
  let token: string;
  const mosqueIds: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp({ build: { healthCheckIntervalMs: 0 } });
    token = await t.login();
    for (const [key, name] of [
      ['noor', 'Al Noor'],
      ['aqsa', 'Masjid al-Aqsa'],
    ] as const) {
      const created = await t.request({
        method: 'POST',
        url: '/api/config/mosques',
        token,
        payload: { name, languages: ['ar'] },
      });
      mosqueIds[key] = created.json<{ data: { mosque_id: string } }>().data.mosque_id;
    }
    const base = Date.parse('2026-11-20T08:00:00.000Z');
    const now = t.clock.now().toISOString();
    await t.app.ctx.db.kysely
      .insertInto('instances')
      .values(
        FLEET.map(({ n, mosque, state, type }) => {
          const id = `cap-page0000000${n}`;
          const mosqueId = mosque ? mosqueIds[mosque] : null;
          const launched = new Date(base + n * 3_600_000).toISOString();
          const ended = ['stopped', 'terminated'].includes(state) ? launched : null;
          return {
            id,
            provider: 'local' as const,
            provider_instance_id: `i-provider${n}`,
            name: `capture-${mosqueId ?? 'adhoc'}-${n}`,
            state,
            instance_type: type,
            mosque_id: mosqueId,
            url: 'https://streams.example.com/live.m3u8',
            method: 'api',
            duration: 60,
            width: 160,
            height: 120,
            image_id: null,
            launch_time: launched,
            running_at: launched,
            ended_at: ended,
            state_reason: null,
            job_id: null,
            updated_at: now,
          };
        }),
      )
      .execute();
  });
  afterAll(() => t.close());

  const page = async (query: string) => {
    const response = await t.request({ method: 'GET', url: `/api/instances/page?${query}`, token });
    expect(response.statusCode, response.body).toBe(200);
    const { instances, total } = instancesPageResponseSchema.parse(response.json()).data;
    return { ns: instances.map((i) => i.id.slice(-1)), total };
  };

  it('answers the newest ten first and the count, leaving the reference list as it was', async () => {
    expect(await page('')).toEqual({ ns: ['6', '5', '4', '3', '2', '1'], total: 6 });
    expect(await page('limit=2&offset=2')).toEqual({ ns: ['4', '3'], total: 6 });
    const list = await t.request({ method: 'GET', url: '/api/instances/', token });
    expect(list.json<{ data: unknown[] }>().data).toHaveLength(6);
  });

  it("searches the name, our id, the provider's id, the mosque's id and its name, ignoring case", async () => {
    expect((await page('q=AL%20NOOR')).ns).toEqual(['6', '4', '1']);
    expect((await page('q=al-aqsa')).ns).toEqual(['5', '2']);
    expect((await page(`q=${mosqueIds.aqsa}`)).ns).toEqual(['5', '2']);
    expect((await page('q=adhoc')).ns).toEqual(['3']);
    expect((await page('q=i-provider4')).ns).toEqual(['4']);
    expect((await page('q=cap-page00000001')).ns).toEqual(['1']);
    expect(await page('q=nothing-like-it')).toEqual({ ns: [], total: 0 });
  });

  it('filters by state, with a search', async () => {
    expect((await page('state=running')).ns).toEqual(['4', '3']);
    expect((await page('state=running&q=noor')).ns).toEqual(['4']);
  });

  it('sorts by a column either way, the ad-hoc instance without a mosque last', async () => {
    expect((await page('sort=instance_type')).ns).toEqual(['2', '3', '5', '6', '4', '1']);
    expect((await page('sort=instance_type&order=desc')).ns).toEqual(['1', '4', '6', '5', '3', '2']);
    expect((await page('sort=state')).ns).toEqual(['5', '3', '4', '2', '6', '1']);
    expect((await page('sort=mosque_id')).ns.at(-1)).toBe('3');
    expect((await page('sort=mosque_id&order=desc')).ns.at(-1)).toBe('3');
    expect((await page('sort=launch_time&limit=2')).ns).toEqual(['1', '2']);
  });

  it('refuses an unknown sort, state or an oversize page with a clear error', async () => {
    for (const query of ['sort=url', 'state=gone', 'limit=1001', 'order=up']) {
      const response = await t.request({ method: 'GET', url: `/api/instances/page?${query}`, token });
      expect(response.statusCode, query).toBe(400);
      expect(errorBodySchema.parse(response.json()).detail).not.toBe('');
    }
  });
});
