import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { naturalCollator, naturalSortKey } from '../../../contract/list-query';
import { mosquesListResponseSchema } from '../../../contract/mosques';
import { recordingsLibraryResponseSchema } from '../../../contract/recordings';
import { openDatabase } from '../../../server/db';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { seedRecording } from '../helpers/recordings';

/** Names with numbers, created in an order that is neither their text order nor their natural one. */
const NAMES = ['Mosque #995', 'Mosque 10', 'Mosque #95', 'mosque 1', 'Mosque #975', 'Mosque 2', 'Mosque #955'];
const NATURAL = ['Mosque #95', 'Mosque #955', 'Mosque #975', 'Mosque #995', 'mosque 1', 'Mosque 2', 'Mosque 10'];

describe('names in natural order where the server sorts and pages', () => {
  let t: TestApp;
  let token: string;
  const idOf: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp({ build: { healthCheckIntervalMs: 0 } });
    token = await t.login();
    for (const name of NAMES) {
      const created = await t.request({
        method: 'POST',
        url: '/api/config/mosques',
        token,
        payload: { name, languages: ['en'] },
      });
      expect(created.statusCode, created.body).toBe(201);
      idOf[name] = created.json<{ data: { mosque_id: string } }>().data.mosque_id;
      t.clock.advance(1000);
    }
  });
  afterAll(() => t.close());

  const mosqueNames = async (query: string) => {
    const response = await t.request({ method: 'GET', url: `/api/config/mosques?${query}`, token });
    expect(response.statusCode, response.body).toBe(200);
    return mosquesListResponseSchema.parse(response.json()).data.mosques.map((m) => m.name);
  };

  it('keys names so that their plain order is the console’s natural order', () => {
    const byKey = [...NAMES].sort((a, b) => (naturalSortKey(a) < naturalSortKey(b) ? -1 : 1));
    expect(byKey).toEqual(NATURAL);
    expect([...NAMES].sort(naturalCollator.compare)).toEqual(NATURAL);
    expect(naturalSortKey('Süleymaniye 007')).toBe(naturalSortKey('suleymaniye 7'));
  });

  it('pages the mosque table by name in natural order, both ways', async () => {
    expect(await mosqueNames('sort=name&limit=4')).toEqual(NATURAL.slice(0, 4));
    expect(await mosqueNames('sort=name&limit=4&offset=4')).toEqual(NATURAL.slice(4));
    expect(await mosqueNames('sort=name&order=desc&limit=3')).toEqual(['Mosque 10', 'Mosque 2', 'mosque 1']);
  });

  it('moves a renamed mosque to its new place', async () => {
    const renamed = await t.request({
      method: 'PUT',
      url: `/api/config/mosques/${idOf['Mosque 10']}`,
      token,
      payload: { name: 'Mosque 3' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect((await mosqueNames('sort=name&q=mosque%20')).slice(-3)).toEqual(['mosque 1', 'Mosque 2', 'Mosque 3']);
    await t.request({
      method: 'PUT',
      url: `/api/config/mosques/${idOf['Mosque 10']}`,
      token,
      payload: { name: 'Mosque 10' },
    });
  });

  it('sorts the recordings library by its mosques’ names in natural order', async () => {
    const recorded = ['Mosque 10', 'Mosque #995', 'Mosque 2', 'Mosque #95'];
    for (const [index, name] of recorded.entries())
      await seedRecording(t, `cap-natural${String(index).padStart(9, '0')}`, idOf[name]);
    const response = await t.request({ method: 'GET', url: '/api/recordings?sort=mosque', token });
    expect(response.statusCode, response.body).toBe(200);
    const listed = recordingsLibraryResponseSchema.parse(response.json()).data.recordings.map((r) => r.mosque_name);
    expect(listed).toEqual(['Mosque #95', 'Mosque #995', 'Mosque 2', 'Mosque 10']);
  });

  it('keys the names a database held before the key existed when it is brought up to date', async () => {
    const db = t.app.ctx.db.kysely;
    // The database as it was before the migration: no key, no index, the migration not yet run.
    await sql`drop index mosques_name_sort`.execute(db);
    await sql`alter table mosques drop column name_sort`.execute(db);
    await sql`delete from kysely_migration where name = '027_natural_name_sort'`.execute(db);
    const reopened = await openDatabase(t.config);
    try {
      const rows = await reopened.kysely.selectFrom('mosques').select(['name', 'name_sort']).execute();
      expect(rows).toHaveLength(NAMES.length);
      for (const row of rows) expect(row.name_sort).toBe(naturalSortKey(row.name));
    } finally {
      await reopened.close();
    }
    expect(await mosqueNames('sort=name&limit=100')).toEqual(NATURAL);
  });
});
