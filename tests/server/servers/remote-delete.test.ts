import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityEntry } from '../../../contract/activity';
import { ServerRegistry } from '../../../server/modules/servers';
import { InternalCalls } from '../../../server/modules/servers/internal-calls';
import { ServersRepository } from '../../../server/modules/servers/repository';
import { freePort } from '../../../testkit/ports';
import { seedRecording } from '../helpers/recordings';
import { createPeerApp, createTestApp, type TestApp } from '../helpers/test-app';

/**
 * Two servers on one PostgreSQL, each with its own data folder: a recording on the first one's
 * disk deleted through the second goes with its file (the first deletes both); while the first is
 * down, the answer names it and nothing is deleted; retention leaves another server's files to it.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('deleting a recording held on another server', () => {
  let a: TestApp;
  let b: TestApp;
  let token: string;

  beforeAll(async () => {
    const [portA, portB] = [await freePort(), await freePort()];
    const shared = { SECRET_KEY: 'a-deployment-secret-shared-by-its-servers-0123', RETENTION_DAYS: '30' };
    a = await createTestApp({
      env: { ...shared, INTERNAL_URL: `http://127.0.0.1:${portA}` },
      build: { healthCheckIntervalMs: 0 },
    });
    b = await createPeerApp(
      a,
      { healthCheckIntervalMs: 0 },
      { dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'capture-peer-')), internalUrl: `http://127.0.0.1:${portB}` },
    );
    // Registered in the servers table once listening, with the data folder their files are in.
    await a.app.listen({ port: portA, host: '127.0.0.1' });
    await b.app.listen({ port: portB, host: '127.0.0.1' });
    token = await b.login();
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  /** A finished recording whose folder (file, segments) is on `dataDir`'s disk, ended `endedAt`. */
  const seedHeldBy = async (dataDir: string, id: string, endedAt = a.clock.now().toISOString()): Promise<string> => {
    await seedRecording(a, `cap-${id}`, 'mosque-noor0001');
    const folder = path.join(dataDir, 'recordings', 'mosque-noor0001', '2026-11-20', `rec-cap-${id}`);
    fs.mkdirSync(path.join(folder, 'segments'), { recursive: true });
    fs.writeFileSync(path.join(folder, 'recording.mp4'), 'media bytes');
    fs.writeFileSync(path.join(folder, 'segments', 'run-0001-00000.ts'), 'piece');
    await a.app.ctx.db.kysely
      .updateTable('recordings')
      .set({ status: 'captured', file_path: path.join(folder, 'recording.mp4'), bytes: 11, ended_at: endedAt })
      .where('id', '=', `rec-cap-${id}`)
      .execute();
    return folder;
  };
  const remove = (via: TestApp, id: string) =>
    via.request({ method: 'DELETE', url: `/api/recordings/rec-cap-${id}`, token });
  const rowOf = (id: string) =>
    a.app.ctx.db.kysely.selectFrom('recordings').select('id').where('id', '=', `rec-cap-${id}`).executeTakeFirst();

  it("deletes through the second server a recording on the first one's disk: its folder there, and its row", async () => {
    const folder = await seedHeldBy(a.config.dataDir, 'held0000001');
    const deleted = await remove(b, 'held0000001');
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(fs.existsSync(folder)).toBe(false);
    expect(await rowOf('held0000001')).toBeUndefined();
    const entries = (await b.request({ method: 'GET', url: '/api/activity', token })).json<{
      data: { entries: ActivityEntry[] };
    }>().data.entries;
    expect(entries.find((entry) => entry.action === 'recording.delete')).toMatchObject({
      actor: { username: 'admin' },
      target: { id: 'rec-cap-held0000001' },
    });
  });

  it('deletes nothing while the server holding the file is down, and says which server that is', async () => {
    const folder = await seedHeldBy(a.config.dataDir, 'held0000002');
    await a.app.ctx.servers.stop();
    try {
      const refused = await remove(b, 'held0000002');
      expect(refused.statusCode).toBe(503);
      const detail = refused.json<{ detail: string }>().detail;
      expect(detail).toContain(a.app.ctx.servers.id);
      expect(detail).toContain(a.config.internalUrl);
      expect(detail).toContain('nothing was deleted');
      expect(fs.existsSync(path.join(folder, 'recording.mp4'))).toBe(true);
      expect(await rowOf('held0000002')).toBeDefined();

      // In a bulk delete it is named with that reason; one on the asked server's own disk goes.
      const ownFolder = await seedHeldBy(b.config.dataDir, 'own00000001');
      const bulk = await b.request({
        method: 'POST',
        url: '/api/recordings/bulk-delete',
        token,
        payload: { recording_ids: ['rec-cap-held0000002', 'rec-cap-own00000001'] },
      });
      expect(bulk.statusCode, bulk.body).toBe(200);
      const { deleted, failed } = bulk.json<{ data: { deleted: string[]; failed: { id: string; reason: string }[] } }>()
        .data;
      expect(deleted).toEqual(['rec-cap-own00000001']);
      expect(failed).toEqual([
        { id: 'rec-cap-held0000002', reason: expect.stringContaining(a.config.internalUrl) as string },
      ]);
      expect(fs.existsSync(ownFolder)).toBe(false);
      expect(fs.existsSync(path.join(folder, 'recording.mp4'))).toBe(true);
      expect(await rowOf('held0000002')).toBeDefined();
    } finally {
      // Heard from again.
      await a.app.ctx.servers.beat();
    }
    // Back: the same delete goes through.
    expect((await remove(b, 'held0000002')).statusCode).toBe(200);
    expect(fs.existsSync(folder)).toBe(false);
  });

  it('deletes nothing when the holder is registered alive but does not answer (died since its last heartbeat)', async () => {
    const silentFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'capture-silent-'));
    const silentAddress = `http://127.0.0.1:${await freePort()}`;
    const silent = new ServerRegistry(
      'silent-host/1/0001',
      new ServersRepository(a.app.ctx.db.kysely),
      a.clock,
      {
        host: os.hostname(),
        internalAddress: silentAddress,
        version: '1.0.0',
        scope: `local:${os.hostname()}:${silentFolder}`,
      },
      a.app.log,
    );
    await silent.start();
    try {
      const folder = await seedHeldBy(silentFolder, 'held0000003');
      const refused = await remove(b, 'held0000003');
      expect(refused.statusCode).toBe(503);
      expect(refused.json<{ detail: string }>().detail).toContain(silentAddress);
      expect(fs.existsSync(path.join(folder, 'recording.mp4'))).toBe(true);
      expect(await rowOf('held0000003')).toBeDefined();
    } finally {
      await silent.stop();
      fs.rmSync(silentFolder, { recursive: true, force: true });
    }
  });

  it("refuses a signed delete for a file not on the asked server's disk (never passed on again)", async () => {
    await seedHeldBy(a.config.dataDir, 'held0000004');
    const calls = new InternalCalls(a.app.ctx.keys.derive('internal-calls'), a.clock, 'a-peer/1/0001');
    const target = { id: b.app.ctx.servers.id, internal_address: b.config.internalUrl };
    const answer = await calls.call(target, 'POST', '/internal/recordings/rec-cap-held0000004/delete', {
      body: { actor: null },
    });
    expect(answer.status).toBe(404);
    expect(await rowOf('held0000004')).toBeDefined();
    expect(
      (
        await a.request({
          method: 'POST',
          url: '/internal/recordings/rec-cap-held0000004/delete',
          payload: { actor: null },
        })
      ).statusCode,
    ).toBe(401);
  });

  it("leaves another server's expired recordings to that server's retention, which removes file and row", async () => {
    const expired = new Date(a.clock.now().getTime() - 31 * 86_400_000).toISOString();
    const folder = await seedHeldBy(a.config.dataDir, 'held0000005', expired);
    expect(await b.app.ctx.recordingsLibrary.applyRetention()).toBe(0);
    expect(await rowOf('held0000005')).toBeDefined();
    expect(await a.app.ctx.recordingsLibrary.applyRetention()).toBe(1);
    expect(fs.existsSync(folder)).toBe(false);
    expect(await rowOf('held0000005')).toBeUndefined();
  });
});
