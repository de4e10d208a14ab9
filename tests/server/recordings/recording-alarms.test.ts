import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderRecording } from '../../../server/capture/provider';
import { createTestApp, type TestApp } from '../helpers/test-app';

/**
 * The alarms the recordings reconcile raises from what a recorder reports, on a real database with
 * the real alarms service: a recorder that died, a gap over 60 s (resolved when media comes back),
 * and a partial or failed outcome, each raised once per cause.
 */
describe('alarms from recording readings', () => {
  let t: TestApp;
  const start = '2026-11-23T09:00:00.000Z';
  const at = (s: number) => new Date(Date.parse(start) + s * 1000).toISOString();

  async function seed(id: string): Promise<void> {
    const now = t.clock.now().toISOString();
    await t.app.ctx.db.kysely
      .insertInto('instances')
      .values({ id, provider: 'local', scope: 'test', provider_instance_id: id, name: `capture-${id}`, state: 'running', instance_type: 'local', mosque_id: 'alarmmosque', url: 'https://streams.example/live.m3u8', method: 'api', duration: 600, width: 320, height: 240, image_id: null, launch_time: now, running_at: now, ended_at: null, state_reason: null, job_id: null, updated_at: now })
      .execute();
    await t.app.ctx.recordings.create({ id: `rec-${id}`, instanceId: id, mosqueId: 'alarmmosque', url: 'https://streams.example/live.m3u8', filePath: null });
  }
  const reading = (fields: Partial<ProviderRecording>): ProviderRecording => ({ status: 'recording', bytes: 1000, mediaSeconds: 10, filePath: null, reason: null, expectedSeconds: 600, coveredSeconds: 10, gaps: [], reconnects: 0, relaunches: 0, ...fields });
  const alarmsOf = async (instanceId: string) => (await t.app.ctx.alarms.list('all', 100)).filter((a) => a.instance_id === instanceId);

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it("writes a recording's progress at most every 5 s of the server's clock", async () => {
    await seed('cap-progress01');
    const bytesOf = async () => (await t.app.ctx.recordings.forInstance('cap-progress01'))?.bytes;
    t.clock.set(at(300));
    expect(await t.app.ctx.recordings.applyReading('cap-progress01', reading({ bytes: 1000 }))).toBe(true);
    expect(await t.app.ctx.recordings.applyReading('cap-progress01', reading({ bytes: 2000 }))).toBe(false);
    expect(await bytesOf()).toBe(1000);
    // Five seconds later on the clock the next reading is written, however little real time passed.
    t.clock.set(at(305));
    expect(await t.app.ctx.recordings.applyReading('cap-progress01', reading({ bytes: 3000 }))).toBe(true);
    expect(await bytesOf()).toBe(3000);
  });

  it('a gap over 60 s raises one stall alarm while it lasts, resolved when media comes back', async () => {
    await seed('cap-alarmgap01');
    t.clock.set(at(100));
    const open = reading({ gaps: [{ start: at(30), end: at(100), reason: 'Stream dropped (HTTP 404)' }] });
    await t.app.ctx.recordings.applyReading('cap-alarmgap01', open);
    await t.app.ctx.recordings.applyReading('cap-alarmgap01', open);
    const raised = await alarmsOf('cap-alarmgap01');
    expect(raised).toEqual([
      expect.objectContaining({ kind: 'stall', severity: 'warning', mosque_id: 'alarmmosque', message: `Mosque alarmmosque: no media for 70 s from ${at(30)} (Stream dropped (HTTP 404))`, resolved_at: null }),
    ]);

    t.clock.set(at(200));
    await t.app.ctx.recordings.applyReading('cap-alarmgap01', reading({ gaps: [{ start: at(30), end: at(110), reason: 'Stream dropped (HTTP 404)' }] }));
    expect(await alarmsOf('cap-alarmgap01')).toEqual([expect.objectContaining({ kind: 'stall', resolved_at: at(200) })]);
  });

  it('a short gap raises nothing; a partial outcome raises one alarm with the reason', async () => {
    await seed('cap-alarmpart1');
    await t.app.ctx.recordings.applyReading('cap-alarmpart1', reading({ gaps: [{ start: at(0), end: at(30), reason: 'Stream not live yet (HTTP 404)' }] }));
    expect(await alarmsOf('cap-alarmpart1')).toEqual([]);
    const reason = 'Recorded 570 s of 600 s: Stream not live yet (HTTP 404) for 30 s';
    await t.app.ctx.recordings.applyReading('cap-alarmpart1', reading({ status: 'partial', coveredSeconds: 570, reason, gaps: [{ start: at(0), end: at(30), reason: 'Stream not live yet (HTTP 404)' }] }));
    expect(await alarmsOf('cap-alarmpart1')).toEqual([
      expect.objectContaining({ kind: 'capture_partial', severity: 'warning', message: `Mosque alarmmosque: only 570 s of 600 s recorded. ${reason}`, resolved_at: null }),
    ]);
    const row = await t.app.ctx.recordings.forInstance('cap-alarmpart1');
    expect(row).toMatchObject({ status: 'partial', covered_seconds: 570, expected_seconds: 600, gaps: [{ start: at(0), end: at(30), reason: 'Stream not live yet (HTTP 404)' }] });
  });

  it('a recorder that died raises recorder_died, resolved when the capture is still captured in full', async () => {
    await seed('cap-alarmdied1');
    await t.app.ctx.recordings.applyReading('cap-alarmdied1', reading({ relaunches: 1 }));
    expect(await alarmsOf('cap-alarmdied1')).toEqual([expect.objectContaining({ kind: 'recorder_died', resolved_at: null })]);
    await t.app.ctx.recordings.applyReading('cap-alarmdied1', reading({ status: 'captured', coveredSeconds: 600, relaunches: 1, bytes: 5000 }));
    const [died] = await alarmsOf('cap-alarmdied1');
    expect(died.resolved_at).not.toBeNull();
    expect(await t.app.ctx.recordings.forInstance('cap-alarmdied1')).toMatchObject({ status: 'captured', download_url: null });
  });

  it('a capture an operator terminated raises no outcome alarm', async () => {
    await seed('cap-alarmterm1');
    await t.app.ctx.recordings.applyReading('cap-alarmterm1', reading({ status: 'partial', coveredSeconds: 100, reason: 'Terminated by admin', stoppedByOperator: true }));
    expect(await alarmsOf('cap-alarmterm1')).toEqual([]);
  });

  it('a failed capture raises a critical alarm', async () => {
    await seed('cap-alarmfail1');
    await t.app.ctx.recordings.applyReading('cap-alarmfail1', reading({ status: 'failed', bytes: 0, coveredSeconds: 0, reason: 'The stream never came: Server returned 404 Not Found' }));
    expect(await alarmsOf('cap-alarmfail1')).toEqual([
      expect.objectContaining({ kind: 'capture_failed', severity: 'critical', message: 'Mosque alarmmosque: nothing was recorded. The stream never came: Server returned 404 Not Found' }),
    ]);
  });

  it('names the mosque in the alarm when it is known', async () => {
    const admin = await t.login();
    const created = await t.request({ method: 'POST', url: '/api/config/mosques', token: admin, payload: { mosque_id: 'namedmosq1', name: 'Al Noor Mosque', languages: ['ar'] } });
    expect(created.statusCode).toBe(201);
    const now = t.clock.now().toISOString();
    await t.app.ctx.db.kysely
      .insertInto('instances')
      .values({ id: 'cap-alarmname1', provider: 'local', scope: 'test', provider_instance_id: 'cap-alarmname1', name: 'capture-named', state: 'running', instance_type: 'local', mosque_id: 'namedmosq1', url: 'https://streams.example/live.m3u8', method: 'api', duration: 600, width: 320, height: 240, image_id: null, launch_time: now, running_at: now, ended_at: null, state_reason: null, job_id: null, updated_at: now })
      .execute();
    await t.app.ctx.recordings.create({ id: 'rec-cap-alarmname1', instanceId: 'cap-alarmname1', mosqueId: 'namedmosq1', url: 'https://streams.example/live.m3u8', filePath: null });
    await t.app.ctx.recordings.applyReading('cap-alarmname1', reading({ status: 'failed', bytes: 0, coveredSeconds: 0, reason: 'The stream never came: HTTP 404' }));
    expect(await alarmsOf('cap-alarmname1')).toEqual([
      expect.objectContaining({ kind: 'capture_failed', mosque_name: 'Al Noor Mosque', message: 'Al Noor Mosque: nothing was recorded. The stream never came: HTTP 404' }),
    ]);
  });
});
