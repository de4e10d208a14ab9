import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityEntry } from '../../../contract/activity';
import { errorBodySchema } from '../../../contract/common';
import type { RecordingStatus } from '../../../contract/instances';
import {
  recordingsBulkDeleteResponseSchema,
  recordingsLibraryResponseSchema,
  recordingsMediaLinksResponseSchema,
} from '../../../contract/recordings';
import { createTestApp, type TestApp } from '../helpers/test-app';

/**
 * Six recordings of three mosques (one deleted since, one ad-hoc capture without a mosque) with
 * different days, outcomes, lengths and sizes, to search, sort and act on many at once.
 */
const LIBRARY: {
  id: string;
  mosque: 'noor' | 'aqsa' | 'zayed' | null;
  started: string;
  status: RecordingStatus;
  seconds: number | null;
  bytes: number;
}[] = [
  {
    id: 'rec-list00000001',
    mosque: 'noor',
    started: '2026-11-06T11:00:00.000Z',
    status: 'captured',
    seconds: 3600,
    bytes: 500,
  },
  {
    id: 'rec-list00000002',
    mosque: 'aqsa',
    started: '2026-11-13T11:00:00.000Z',
    status: 'partial',
    seconds: 1800,
    bytes: 300,
  },
  {
    id: 'rec-list00000003',
    mosque: 'zayed',
    started: '2026-11-13T10:00:00.000Z',
    status: 'failed',
    seconds: null,
    bytes: 0,
  },
  {
    id: 'rec-list00000004',
    mosque: 'noor',
    started: '2026-11-20T11:00:00.000Z',
    status: 'captured',
    seconds: 7200,
    bytes: 900,
  },
  {
    id: 'rec-list00000005',
    mosque: null,
    started: '2026-11-21T09:00:00.000Z',
    status: 'captured',
    seconds: 60,
    bytes: 100,
  },
  {
    id: 'rec-list00000006',
    mosque: 'aqsa',
    started: '2026-11-20T10:00:00.000Z',
    status: 'recording',
    seconds: null,
    bytes: 0,
  },
];

describe('recordings library at scale: search, sort and bulk actions', () => {
  let t: TestApp;
  let admin: string;
  let operator: string;
  const mosqueIds: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp({ build: { healthCheckIntervalMs: 0 } });
    admin = await t.login();
    operator = (await t.createUser({ username: 'operator', role: 'user' })).token;
    // Ids of their own: a generated one holds "al" now and then, and the search for "al" then finds it too.
    for (const [key, mosque_id, name, name_ar] of [
      ['noor', 'noor000001', 'Al Noor', 'النور'],
      ['aqsa', 'aqsa000001', 'al-Aqsa', null],
      ['zayed', 'zayed00001', 'Zayed', null],
    ] as const) {
      const created = await t.request({
        method: 'POST',
        url: '/api/config/mosques',
        token: admin,
        payload: { mosque_id, name, name_ar, languages: ['ar'] },
      });
      mosqueIds[key] = created.json<{ data: { mosque_id: string } }>().data.mosque_id;
    }
    const root = path.join(t.config.dataDir, 'recordings');
    const sample = path.join(t.config.dataDir, 'sample.mp4');
    execFileSync('ffmpeg', [
      '-hide_banner',
      '-loglevel',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=160x120:rate=10',
      '-t',
      '1',
      '-c:v',
      'libx264',
      '-pix_fmt',
      'yuv420p',
      '-y',
      sample,
    ]);
    const db = t.app.ctx.db.kysely;
    const now = t.clock.now().toISOString();
    for (const recording of LIBRARY) {
      const mosqueId = recording.mosque ? mosqueIds[recording.mosque] : null;
      const instanceId = recording.id.replace('rec-', 'cap-');
      const file = path.join(root, mosqueId ?? 'adhoc', recording.started.slice(0, 10), recording.id, 'recording.mp4');
      if (recording.bytes > 0) {
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.copyFileSync(sample, file);
      }
      const ended = recording.status === 'recording' ? null : now;
      await db
        .insertInto('instances')
        .values({
          id: instanceId,
          provider: 'local',
          provider_instance_id: instanceId,
          name: `capture-${instanceId}`,
          state: ended ? 'stopped' : 'running',
          instance_type: 'local',
          mosque_id: mosqueId,
          url: 'https://streams.example.com/live.m3u8',
          method: 'api',
          duration: 60,
          width: 160,
          height: 120,
          image_id: null,
          launch_time: now,
          running_at: now,
          ended_at: ended,
          state_reason: null,
          job_id: null,
          updated_at: now,
        })
        .execute();
      await db
        .insertInto('recordings')
        .values({
          id: recording.id,
          instance_id: instanceId,
          mosque_id: mosqueId,
          url: 'https://streams.example.com/live.m3u8',
          status: recording.status,
          started_at: recording.started,
          ended_at: ended,
          bytes: recording.bytes,
          duration_seconds: recording.seconds,
          file_path: file,
          reason: null,
          updated_at: now,
        })
        .execute();
    }
    // A mosque deleted since: its recordings stay, without a name.
    await db.deleteFrom('mosques').where('mosque_id', '=', mosqueIds.zayed).execute();
  });
  afterAll(() => t.close());

  const ids = async (query: string) => {
    const response = await t.request({ method: 'GET', url: `/api/recordings?${query}`, token: operator });
    expect(response.statusCode, response.body).toBe(200);
    const { recordings, total } = recordingsLibraryResponseSchema.parse(response.json()).data;
    return { ids: recordings.map((r) => r.id.slice(-1)), total };
  };

  it('lists newest first without a sort, as before', async () => {
    expect(await ids('')).toEqual({ ids: ['5', '4', '6', '2', '3', '1'], total: 6 });
    expect((await ids('order=asc')).ids).toEqual(['1', '3', '2', '6', '4', '5']);
  });

  it("searches the mosque's name in either script, its id and the recording's id, ignoring case", async () => {
    expect(await ids('q=AL%20NOOR')).toEqual({ ids: ['4', '1'], total: 2 });
    expect((await ids(`q=${encodeURIComponent('النور')}`)).ids).toEqual(['4', '1']);
    expect((await ids('q=al')).ids).toEqual(['4', '6', '2', '1']);
    expect((await ids(`q=${mosqueIds.zayed}`)).ids).toEqual(['3']);
    expect((await ids('q=list00000005')).ids).toEqual(['5']);
    // A search narrows the other filters' answer and its total, and pages like any list.
    expect(await ids('q=al&status=captured&limit=1&offset=1')).toEqual({ ids: ['1'], total: 2 });
    expect((await ids('q=%25')).total).toBe(0);
  });

  it('sorts by each column in either direction, ties by start, empty values last', async () => {
    // "Al Noor" before "al-Aqsa" (a space sorts before "-"); a deleted mosque and an ad-hoc capture have no name.
    expect((await ids('sort=mosque')).ids).toEqual(['1', '4', '2', '6', '3', '5']);
    expect((await ids('sort=mosque&order=desc')).ids).toEqual(['6', '2', '4', '1', '5', '3']);
    expect((await ids('sort=friday')).ids).toEqual(['1', '3', '2', '6', '4', '5']);
    expect((await ids('sort=friday&order=desc')).ids).toEqual(['5', '4', '6', '2', '3', '1']);
    expect((await ids('sort=bytes&order=desc')).ids).toEqual(['4', '1', '2', '5', '6', '3']);
    expect((await ids('sort=duration_seconds')).ids.slice(0, 4)).toEqual(['5', '2', '1', '4']);
    expect((await ids('sort=duration_seconds&order=desc')).ids.slice(0, 4)).toEqual(['4', '1', '2', '5']);
    expect((await ids('sort=status&limit=2')).ids).toEqual(['1', '4']);
    expect((await ids('sort=started_at&limit=2')).ids).toEqual(['1', '3']);
  });

  it('refuses an unknown sort, order or an overlong search with a clear error', async () => {
    for (const query of ['sort=file_path', 'order=up', `q=${'x'.repeat(101)}`]) {
      const response = await t.request({ method: 'GET', url: `/api/recordings?${query}`, token: operator });
      expect(response.statusCode, query).toBe(400);
      expect(errorBodySchema.parse(response.json()).detail).not.toBe('');
    }
  });

  it('answers signed download links of the recordings that have media, naming the ones that have none', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/recordings/media-links',
      token: operator,
      payload: { recording_ids: ['rec-list00000001', 'rec-list00000003', 'rec-list00000004', 'rec-nothere00001'] },
    });
    expect(response.statusCode, response.body).toBe(200);
    const { links, failed } = recordingsMediaLinksResponseSchema.parse(response.json()).data;
    expect(links.map((link) => link.id)).toEqual(['rec-list00000001', 'rec-list00000004']);
    expect(failed).toEqual([
      { id: 'rec-list00000003', reason: 'Recording rec-list00000003 has no media to play' },
      { id: 'rec-nothere00001', reason: 'Recording rec-nothere00001 not found' },
    ]);
    // Each link downloads its file without a bearer header.
    const media = await t.request({ method: 'GET', url: links[0].url });
    expect(media.statusCode).toBe(200);
    expect(media.headers['content-disposition']).toMatch(/^attachment/);
    expect(media.rawPayload.length).toBe(fs.statSync(path.join(t.config.dataDir, 'sample.mp4')).size);
  });

  it('refuses a bulk request with no ids, a repeated id, too many or a hostile one', async () => {
    const many = Array.from({ length: 101 }, (_, i) => `rec-many${String(i).padStart(8, '0')}`);
    for (const recording_ids of [[], ['rec-list00000001', 'rec-list00000001'], many, ['../etc/passwd']]) {
      for (const url of ['/api/recordings/media-links', '/api/recordings/bulk-delete']) {
        const response = await t.request({ method: 'POST', url, token: admin, payload: { recording_ids } });
        expect(response.statusCode, `${url} ${recording_ids.length}`).toBe(400);
      }
    }
    expect((await ids('')).total).toBe(6);
  });

  it('deletes many for a superuser only, each as its single delete, naming the ones it could not', async () => {
    const payload = { recording_ids: ['rec-list00000002', 'rec-list00000006', 'rec-list00000005', 'rec-nothere00001'] };
    const refused = await t.request({ method: 'POST', url: '/api/recordings/bulk-delete', token: operator, payload });
    expect(refused.statusCode).toBe(403);
    expect((await ids('')).total).toBe(6);

    const response = await t.request({ method: 'POST', url: '/api/recordings/bulk-delete', token: admin, payload });
    expect(response.statusCode, response.body).toBe(200);
    const body = recordingsBulkDeleteResponseSchema.parse(response.json());
    expect(body.message).toBe('2 recordings deleted');
    expect(body.data).toEqual({
      deleted: ['rec-list00000002', 'rec-list00000005'],
      failed: [
        {
          id: 'rec-list00000006',
          reason: 'Recording rec-list00000006 is still recording: terminate its instance first',
        },
        { id: 'rec-nothere00001', reason: 'Recording rec-nothere00001 not found' },
      ],
    });
    expect(await ids('')).toEqual({ ids: ['4', '6', '3', '1'], total: 4 });
    expect(fs.existsSync(path.join(t.config.dataDir, 'recordings', 'adhoc', '2026-11-21', 'rec-list00000005'))).toBe(
      false,
    );
    const entries = (await t.request({ method: 'GET', url: '/api/activity', token: admin })).json<{
      data: { entries: ActivityEntry[] };
    }>().data.entries;
    const deletions = entries.filter((entry) => entry.action === 'recording.delete').map((entry) => entry.target?.id);
    expect(deletions.sort()).toEqual(['rec-list00000002', 'rec-list00000005']);
  });
});
