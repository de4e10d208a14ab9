import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityEntry } from '../../../contract/activity';
import {
  recordingDetailsResponseSchema,
  recordingsLibraryResponseSchema,
  storageUsageResponseSchema,
} from '../../../contract/recordings';
import { COMPRESS_THRESHOLD_BYTES } from '../../../server/plugins/compression';
import { fridayJobRow } from '../../../testkit/job-row';
import { createTestApp, type TestApp } from '../helpers/test-app';

/** A real two-second MP4, as a recorder leaves it. */
function makeMp4(file: string): number {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  execFileSync('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=160x120:rate=10',
    '-t',
    '2',
    '-c:v',
    'libx264',
    '-pix_fmt',
    'yuv420p',
    '-y',
    file,
  ]);
  return fs.statSync(file).size;
}

describe('recordings library', () => {
  let t: TestApp;
  let admin: string;
  let operator: string;
  let mp4Size: number;
  /** The good recording's own folder in the local store. */
  let goodFolder: string;

  beforeAll(async () => {
    t = await createTestApp({ env: { RETENTION_DAYS: '30' }, build: { healthCheckIntervalMs: 0 } });
    admin = await t.login();
    operator = (await t.createUser({ username: 'operator', role: 'user' })).token;
    const created = await t.request({
      method: 'POST',
      url: '/api/config/mosques',
      token: admin,
      payload: {
        name: 'Al Noor Mosque',
        languages: ['ar'],
        latitude: 21.4225,
        longitude: 39.8262,
        timezone: 'Asia/Riyadh',
      },
    });
    const mosqueId = created.json<{ data: { mosque_id: string } }>().data.mosque_id;
    const db = t.app.ctx.db.kysely;
    const root = path.join(t.config.dataDir, 'recordings');
    const goodFile = path.join(root, mosqueId, '2026-11-20', 'rec-good00000001', 'recording.mp4');
    mp4Size = makeMp4(goodFile);
    goodFolder = path.dirname(goodFile);
    const now = t.clock.now().toISOString();
    const instance = (id: string, jobId: string | null) => ({
      id,
      provider: 'local' as const,
      provider_instance_id: id,
      name: `capture-${id}`,
      state: 'stopped' as const,
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
      ended_at: now,
      state_reason: null,
      job_id: jobId,
      updated_at: now,
    });
    await db
      .insertInto('scheduler_jobs')
      .values(
        fridayJobRow('job-noor-2026-11-20', '2026-11-20T08:55:00Z', {
          name: 'Friday recording: Al Noor Mosque',
          next_run_time: null,
          status: 'launched',
          mosque_id: mosqueId,
          mosque_name: 'Al Noor Mosque',
          timezone: 'Asia/Riyadh',
          width: 160,
          height: 120,
          instance_id: 'cap-good00000001',
          launched_at: now,
          created_at: now,
          updated_at: now,
        }),
      )
      .execute();
    await db
      .insertInto('instances')
      .values([instance('cap-good00000001', 'job-noor-2026-11-20'), instance('cap-fail00000001', null)])
      .execute();
    const recording = {
      mosque_id: mosqueId,
      url: 'https://streams.example.com/live.m3u8',
      reason: null,
      updated_at: now,
      duration_seconds: 2,
    };
    await db
      .insertInto('recordings')
      .values([
        {
          ...recording,
          id: 'rec-good00000001',
          instance_id: 'cap-good00000001',
          status: 'partial',
          started_at: '2026-11-20T08:55:00.000Z',
          ended_at: '2026-11-20T10:55:00.000Z',
          bytes: mp4Size,
          file_path: goodFile,
        },
        // A capture that failed: its file is empty and must not be offered.
        {
          ...recording,
          id: 'rec-fail00000001',
          instance_id: 'cap-fail00000001',
          status: 'failed',
          started_at: now,
          ended_at: now,
          bytes: 0,
          file_path: path.join(root, mosqueId, 'empty.mp4'),
          reason: 'The stream never came',
        },
      ])
      .execute();
  });
  afterAll(() => t.close());

  it('sends the list compressed to a client that accepts it, as every JSON answer of 1 KiB or more', async () => {
    const plain = await t.request({ method: 'GET', url: '/api/recordings', token: operator });
    expect(plain.rawPayload.length).toBeGreaterThanOrEqual(COMPRESS_THRESHOLD_BYTES);
    const compressed = await t.request({
      method: 'GET',
      url: '/api/recordings',
      token: operator,
      headers: { 'accept-encoding': 'br' },
    });
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(compressed.rawPayload).toString()).toBe(plain.body);
  });

  it('lists by Friday and mosque with names, totals and paging', async () => {
    const all = recordingsLibraryResponseSchema.parse(
      (await t.request({ method: 'GET', url: '/api/recordings?limit=1', token: operator })).json(),
    ).data;
    expect(all.total).toBe(2);
    expect(all.recordings).toHaveLength(1);
    const second = recordingsLibraryResponseSchema.parse(
      (await t.request({ method: 'GET', url: '/api/recordings?limit=1&offset=1', token: operator })).json(),
    ).data;
    expect(second.recordings[0].id).not.toBe(all.recordings[0].id);

    const friday = recordingsLibraryResponseSchema.parse(
      (await t.request({ method: 'GET', url: '/api/recordings?friday=2026-11-20', token: operator })).json(),
    ).data;
    expect(friday.total).toBe(1);
    expect(friday.recordings[0]).toMatchObject({
      id: 'rec-good00000001',
      mosque_name: 'Al Noor Mosque',
      friday: '2026-11-20',
      job_id: 'job-noor-2026-11-20',
      media_available: true,
    });

    const failed = recordingsLibraryResponseSchema.parse(
      (await t.request({ method: 'GET', url: '/api/recordings?status=failed', token: operator })).json(),
    ).data;
    expect(failed.recordings[0]).toMatchObject({
      id: 'rec-fail00000001',
      friday: '2026-11-23',
      media_available: false,
      download_url: null,
    });
    expect(
      (await t.request({ method: 'GET', url: '/api/recordings?friday=20-11-2026', token: operator })).statusCode,
    ).toBe(400);
  });

  it('shows the files of a recording', async () => {
    const details = recordingDetailsResponseSchema.parse(
      (await t.request({ method: 'GET', url: '/api/recordings/rec-good00000001', token: operator })).json(),
    ).data;
    expect(details.store).toBe('local');
    expect(details.files).toEqual([{ name: 'recording.mp4', bytes: mp4Size }]);
    expect((await t.request({ method: 'GET', url: '/api/recordings/rec-nope', token: operator })).statusCode).toBe(404);
  });

  it('serves byte ranges with 206, and the whole file without a range', async () => {
    // A browser offers compression; media and their ranges go as stored (the offsets count the file's bytes).
    const ranged = await t.request({
      method: 'GET',
      url: '/api/recordings/rec-good00000001/media',
      token: operator,
      headers: { range: 'bytes=0-99', 'accept-encoding': 'br, gzip' },
    });
    expect(ranged.statusCode).toBe(206);
    expect(ranged.headers['content-encoding']).toBeUndefined();
    expect(ranged.rawPayload.length).toBe(100);
    expect(ranged.headers['content-range']).toBe(`bytes 0-99/${mp4Size}`);
    expect(ranged.headers['accept-ranges']).toBe('bytes');
    expect(ranged.rawPayload.subarray(4, 8).toString()).toBe('ftyp');

    const whole = await t.request({
      method: 'GET',
      url: '/api/recordings/rec-good00000001/media',
      token: operator,
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-encoding']).toBeUndefined();
    expect(whole.rawPayload.length).toBe(mp4Size);

    const beyond = await t.request({
      method: 'GET',
      url: '/api/recordings/rec-good00000001/media',
      token: operator,
      headers: { range: `bytes=${mp4Size}-` },
    });
    expect(beyond.statusCode).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${mp4Size}`);
    const reversed = await t.request({
      method: 'GET',
      url: '/api/recordings/rec-good00000001/media',
      token: operator,
      headers: { range: 'bytes=99-0' },
    });
    expect(reversed.statusCode).toBe(200);
    expect(reversed.rawPayload.length).toBe(mp4Size);
    expect(
      (await t.request({ method: 'GET', url: '/api/recordings/rec-fail00000001/media', token: operator })).statusCode,
    ).toBe(404);
  });

  it('opens media from a signed link without a bearer header, only for that recording and until it expires', async () => {
    expect((await t.request({ method: 'GET', url: '/api/recordings/rec-good00000001/media' })).statusCode).toBe(401);
    const link = await t.request({
      method: 'POST',
      url: '/api/recordings/rec-good00000001/media-link',
      token: operator,
    });
    expect(link.statusCode).toBe(200);
    const { url } = link.json<{ data: { url: string } }>().data;
    const played = await t.request({ method: 'GET', url, headers: { range: 'bytes=0-9' } });
    expect(played.statusCode).toBe(206);
    expect(played.rawPayload.length).toBe(10);

    const token = new URL(url, 'http://x').searchParams.get('token');
    expect(
      (await t.request({ method: 'GET', url: `/api/recordings/rec-fail00000001/media?token=${token}` })).statusCode,
    ).toBe(401);
    const [expiry, sessionId] = token!.split('.');
    const forged = `${expiry}.${sessionId}.${'A'.repeat(43)}`;
    expect(
      (await t.request({ method: 'GET', url: `/api/recordings/rec-good00000001/media?token=${forged}` })).statusCode,
    ).toBe(401);
    t.clock.advance(3 * 3600 * 1000 + 1000);
    expect((await t.request({ method: 'GET', url })).statusCode).toBe(401);
    expect(
      (await t.request({ method: 'POST', url: '/api/recordings/rec-fail00000001/media-link', token: operator }))
        .statusCode,
    ).toBe(404);
  });

  it('a signed media link stops working when the session that made it ends', async () => {
    const viewer = await t.login();
    const { url } = (
      await t.request({ method: 'POST', url: '/api/recordings/rec-good00000001/media-link', token: viewer })
    ).json<{ data: { url: string } }>().data;
    expect((await t.request({ method: 'GET', url, headers: { range: 'bytes=0-9' } })).statusCode).toBe(206);
    expect((await t.request({ method: 'POST', url: '/api/auth/logout', token: viewer })).statusCode).toBe(200);
    const after = await t.request({ method: 'GET', url, headers: { range: 'bytes=0-9' } });
    expect(after.statusCode).toBe(401);
    expect(after.json().detail).toMatch(/its session has ended/);
  });

  it('reports the store and its free space', async () => {
    const storage = storageUsageResponseSchema.parse(
      (await t.request({ method: 'GET', url: '/api/recordings/storage', token: operator })).json(),
    ).data;
    expect(storage).toMatchObject({ store: 'local', used_bytes: mp4Size, retention_days: 30 });
    expect(storage.free_bytes).toBeGreaterThan(0);
  });

  it('measures again when an operator asks, but not twice within 30 s', async () => {
    const read = async (method: 'GET' | 'POST', url: string) =>
      storageUsageResponseSchema.parse((await t.request({ method, url, token: operator })).json()).data;
    const before = await read('GET', '/api/recordings/storage');
    const extra = path.join(goodFolder, 'extra.bin');
    fs.writeFileSync(extra, Buffer.alloc(1000));
    t.clock.advance(60_000);
    expect(await read('GET', '/api/recordings/storage')).toMatchObject({
      used_bytes: before.used_bytes,
      measured_at: before.measured_at,
    });
    const measured = await read('POST', '/api/recordings/storage/measure');
    expect(measured).toMatchObject({ used_bytes: before.used_bytes + 1000, measured_at: t.clock.now().toISOString() });
    fs.rmSync(extra);
    t.clock.advance(10_000);
    expect(await read('POST', '/api/recordings/storage/measure')).toEqual(measured);
  });

  it('is deleted by a superuser only, with its media, and the deletion is logged', async () => {
    // Beside its file, its own folder holds what the recorders delivered: that goes too.
    const folder = goodFolder;
    fs.mkdirSync(path.join(folder, 'segments', '20261120T085500Z'), { recursive: true });
    fs.writeFileSync(path.join(folder, 'segments', '20261120T085500Z', 'run-0001-00000.ts'), 'piece');
    fs.writeFileSync(path.join(folder, 'metadata.json'), '{}');
    expect(
      (await t.request({ method: 'DELETE', url: '/api/recordings/rec-good00000001', token: operator })).statusCode,
    ).toBe(403);
    const deleted = await t.request({ method: 'DELETE', url: '/api/recordings/rec-good00000001', token: admin });
    expect(deleted.statusCode).toBe(200);
    expect(fs.existsSync(path.join(t.config.dataDir, 'recordings'))).toBe(true);
    expect(fs.existsSync(folder)).toBe(false);
    expect((await t.request({ method: 'GET', url: '/api/recordings/rec-good00000001', token: admin })).statusCode).toBe(
      404,
    );
    const entries = (await t.request({ method: 'GET', url: '/api/activity', token: admin })).json<{
      data: { entries: ActivityEntry[] };
    }>().data.entries;
    expect(entries[0].summary).toBe('admin deleted recording Al Noor Mosque 2026-11-20');
  });

  it('removes recordings past the retention period and logs it', async () => {
    // The failed recording ended "now" (2026-11-23 09:00); 31 days later it is past 30 days.
    expect(await t.app.ctx.recordingsLibrary.applyRetention()).toBe(0);
    t.clock.advance(31 * 86_400_000);
    expect(await t.app.ctx.recordingsLibrary.applyRetention()).toBe(1);
    admin = await t.login(); // a month later the old session has long expired
    expect(
      (await t.request({ method: 'GET', url: '/api/recordings', token: admin })).json<{ data: { total: number } }>()
        .data.total,
    ).toBe(0);
    const entries = (await t.request({ method: 'GET', url: '/api/activity', token: admin })).json<{
      data: { entries: ActivityEntry[] };
    }>().data.entries;
    expect(entries.find((e) => e.action === 'recording.expire')).toMatchObject({
      actor: null,
      target: { id: 'rec-fail00000001' },
    });
  });
});
