import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import type { InstanceDetails } from '../../../contract/instances';
import type { ServerMessage } from '../../../contract/live';
import { buildApp, type App } from '../../../server/app';
import { addMosques } from '../helpers/mosques';
import { createTestApp, type TestApp } from '../helpers/test-app';
import {
  alive,
  decodesCleanly,
  ffprobe,
  instancePids,
  killRecorders,
  startHlsSource,
  waitFor,
  type HlsSource,
} from '../../../testkit/capture';
import { scaled } from '../../../testkit/time-scale';
import { contentFileOf } from '../../../recorder/protocol';

// PostgreSQL pass: skipped: a minute of real-time capture; its rows are written by the reconcile calls that scheduler/capture.test.ts makes on PostgreSQL

describe('local capture driver', () => {
  let t: TestApp;
  let token: string;
  let source: HlsSource;
  /** The app under test; replaced by the restart test. */
  let app: App;
  const apps: App[] = [];

  const get = async <T>(url: string): Promise<T> => {
    const response = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
    return response.json<{ data: T }>().data;
  };
  const details = (id: string) => get<InstanceDetails>(`/api/instances/${id}`);
  const launch = async (config: Record<string, unknown>) => {
    const response = await t.request({
      method: 'POST',
      url: '/api/instances/launch',
      token,
      payload: { configs: [config], max_workers: 1 },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ data: { instances: { id: string; state: string }[] } }>().data.instances[0];
  };
  const until = (id: string, what: string, test: (d: InstanceDetails) => boolean, timeoutMs = 30_000) =>
    waitFor(
      async () => {
        const d = await details(id);
        return test(d) ? d : undefined;
      },
      `${id} ${what}`,
      timeoutMs,
    );

  beforeAll(async () => {
    [t, source] = await Promise.all([createTestApp(), startHlsSource()]);
    app = t.app;
    token = await t.login();
    await addMosques(t, token, 'testmosqu1', 'restartm01', 'restartm02');
  });

  afterAll(async () => {
    killRecorders(t.config.dataDir);
    for (const extra of apps) await extra.close();
    await source?.close();
    await t?.close();
  });

  it(
    'records a live HLS stream for its whole window at the requested frame size',
    { timeout: scaled(60_000) },
    async () => {
      const launched = await launch({ url: source.url, duration: 8, width: 320, height: 180, mosque_id: 'testmosqu1' });
      expect(launched.state).toBe('pending');

      const ended = await until(launched.id, 'to finish', (d) => d.state === 'stopped');
      expect(ended.running_at).not.toBeNull();
      expect(ended.recording).toMatchObject({
        file_name: '20261123T090000Z.mp4',
        expected_seconds: 8,
        gaps: [],
        reconnects: 0,
      });
      // The test stream is made in real time by ffmpeg on this machine: on a busy host it publishes a little
      // less than 8 s in 8 s (7.7 s seen in CI), and the recorder then rightly says partial. What is the
      // recorder's own is checked: no gap, no reconnect, at most half a second short, and the outcome that
      // follows from its coverage (captured from 99%).
      const covered = ended.recording?.covered_seconds ?? 0;
      expect(covered).toBeGreaterThanOrEqual(7.5);
      const outcome = covered >= 7.92 ? 'captured' : 'partial';
      expect(ended.recording).toMatchObject(
        outcome === 'captured'
          ? { status: 'captured', reason: null }
          : { status: 'partial', reason: expect.stringMatching(/^Recorded 7\.\d+ s of 8 s$/) },
      );

      const file = path.join(t.config.dataDir, 'recordings', 'testmosqu1', '20261123T090000Z.mp4');
      const probe = await ffprobe(file);
      expect(probe).toMatchObject({ width: 320, height: 180 });
      // A live reader starts a few segments behind the live edge: the file may hold a little more than the window.
      // It also holds on past the end until a segment provably published after it, and a later reading that
      // places the stretch earlier (hls-reader's bound on the last kept segment) moves that end a second or
      // two further: 12.26 s seen under load.
      expect(probe.duration).toBeGreaterThanOrEqual(Math.min(7.9, covered - 0.1));
      expect(probe.duration).toBeLessThanOrEqual(13);
      expect(ended.recording?.bytes).toBe(fs.statSync(file).size);

      const logs = await get<{ logs: string[] }>(`/api/instances/${launched.id}/logs?lines=100&live=false`);
      expect(logs.logs.some((line) => line.includes('media is flowing'))).toBe(true);
      expect(logs.logs.at(-1)).toMatch(
        new RegExp(`finished: ${outcome}( \\([^)]*\\))?; [0-9.]+ s of 8 s covered, gaps: 0, reconnects: 0`),
      );
      // The pieces are in the joined file: only the file is left in the folder, with its content readings.
      expect(fs.readdirSync(path.dirname(file)).sort()).toEqual([
        '20261123T090000Z.mp4',
        contentFileOf('20261123T090000Z.mp4'),
      ]);

      const download = await t.request({ method: 'GET', url: ended.recording?.download_url ?? '', token });
      expect(download.statusCode).toBe(200);
      expect(download.headers['content-type']).toBe('video/mp4');
      expect(download.rawPayload.length).toBe(fs.statSync(file).size);
      expect((await t.request({ method: 'GET', url: ended.recording?.download_url ?? '' })).statusCode).toBe(401);

      const list = await get<{ recordings: { instance_id: string; status: string }[] }>(
        '/api/recordings?mosque_id=testmosqu1',
      );
      expect(list.recordings).toEqual([expect.objectContaining({ instance_id: launched.id, status: outcome })]);
    },
  );

  it('terminate stops a capture early and leaves a playable partial file', { timeout: scaled(60_000) }, async () => {
    const launched = await launch({ url: source.url, duration: 120, width: 320, height: 240 });
    await until(launched.id, 'to run', (d) => d.state === 'running');

    // A console that subscribed to this instance's logs gets them pushed (every 5 s) while it runs.
    const pushed: ServerMessage[] = [];
    const socket = {
      readyState: 1,
      OPEN: 1,
      bufferedAmount: 0,
      send: (p: string) => pushed.push(JSON.parse(p) as ServerMessage),
      close: () => undefined,
      terminate: () => undefined,
    };
    const subscriber = {
      socket: socket as unknown as WebSocket,
      token: 't',
      sessionId: 's',
      userId: 1,
      logSubscriptions: new Set([launched.id]),
    };
    app.ctx.hub.add(subscriber);
    try {
      const logs = await waitFor(
        () => pushed.find((m) => m.type === 'instance_logs'),
        'logs pushed to the subscriber',
        8000,
      );
      expect(logs).toMatchObject({
        instance_id: launched.id,
        logs: expect.arrayContaining([expect.stringMatching(/media is flowing/)]),
      });
    } finally {
      app.ctx.hub.remove(subscriber);
    }

    const response = await t.request({
      method: 'POST',
      url: '/api/instances/terminate',
      token,
      payload: { instance_ids: [launched.id] },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data.results).toEqual([
      { instance_id: launched.id, success: true, state: 'stopping', message: 'Terminating' },
    ]);

    const ended = await until(launched.id, 'to terminate', (d) => d.state === 'terminated', 20_000);
    expect(ended.recording).toMatchObject({ status: 'partial', reason: 'Stopped by admin', expected_seconds: 120 });
    // What an operator stopped is no fault: the rest of the 120 s window (over 100 s) is no gap, and raises no stall and no partial alarm.
    const holeSeconds = (ended.recording?.gaps ?? []).reduce(
      (sum, gap) => sum + (Date.parse(gap.end) - Date.parse(gap.start)) / 1000,
      0,
    );
    expect(holeSeconds).toBeLessThan(60);
    expect((await app.ctx.alarms.list('all', 500)).filter((alarm) => alarm.instance_id === launched.id)).toEqual([]);
    const file = path.join(t.config.dataDir, 'recordings', 'adhoc', ended.recording?.file_name ?? '');
    const probe = await ffprobe(file);
    expect(probe).toMatchObject({ width: 320, height: 240 });
    expect(probe.duration).toBeGreaterThan(1);
    expect(probe.duration).toBeLessThan(60);
    expect(await decodesCleanly(file)).toBe(true);

    const again = await t.request({
      method: 'POST',
      url: '/api/instances/terminate',
      token,
      payload: { instance_ids: [launched.id] },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe(`Instance ${launched.id} is not running (it is terminated)`);
  });

  it(
    'a stream whose playlist stops moving is a stall: the recorder keeps reading it and lists the gap',
    { timeout: scaled(60_000) },
    async () => {
      const stalling = await startHlsSource();
      try {
        const launched = await app.ctx.capture.launch(
          { url: stalling.url, duration: 16, width: 320, height: 240, mosque_id: null, method: 'api' },
          { stallTimeoutSeconds: 3 },
        );
        await until(launched.launchId, 'to run', (d) => d.state === 'running');
        await stalling.stopGenerator();
        const ended = await until(launched.launchId, 'to end its window', (d) => d.state === 'stopped', 40_000);
        expect(ended.recording, JSON.stringify(ended.recording)).toMatchObject({
          status: 'partial',
          expected_seconds: 16,
        });
        expect(ended.recording?.gaps.map((gap) => [gap.cause, gap.reason])).toContainEqual([
          'stream_stalled',
          'Stream stalled (no new segment for 3 s)',
        ]);
        expect(ended.recording?.reason).toMatch(
          /^Recorded [\d.]+ s of 16 s: .*Stream stalled \(no new segment for 3 s\) for [\d.]+ s/,
        );
        expect(ended.state_reason).toBe(ended.recording?.reason);
        const logs = await get<{ logs: string[] }>(`/api/instances/${launched.launchId}/logs?lines=200&live=false`);
        expect(
          logs.logs.some((line) => /Stream stalled \(no new segment for 3 s\); still reading its playlist/.test(line)),
        ).toBe(true);
        expect(
          (await ffprobe(path.join(t.config.dataDir, 'recordings', 'adhoc', ended.recording?.file_name ?? '')))
            .duration,
        ).toBeGreaterThan(0);
      } finally {
        await stalling.close();
      }
    },
  );

  it('a stream that cannot be opened fails with the reason once its window closes', async () => {
    const missing = source.url.replace('live.m3u8', 'missing.m3u8');
    const launched = await launch({ url: missing, duration: 8, width: 320, height: 240 });
    // The instance and its recording are reconciled one after the other: wait for both.
    const ended = await until(
      launched.id,
      'to fail',
      (d) => d.state === 'stopped' && d.recording?.status !== 'recording',
    );
    expect(ended.running_at).toBeNull();
    expect(ended.recording).toMatchObject({ status: 'failed', covered_seconds: 0, bytes: 0, download_url: null });
    expect(ended.recording?.reason).toMatch(/^The stream never came: .*(404|not found)/i);
  });

  it(
    'a restarted server re-adopts running recorders; one that died meanwhile is started again',
    { timeout: scaled(90_000) },
    async () => {
      const survivor = await launch({
        url: source.url,
        duration: 12,
        width: 320,
        height: 240,
        mosque_id: 'restartm01',
      });
      const victim = await launch({ url: source.url, duration: 20, width: 320, height: 240, mosque_id: 'restartm02' });
      await until(survivor.id, 'to run', (d) => d.state === 'running');
      await until(victim.id, 'to run', (d) => d.state === 'running');

      await app.close();
      const survivorPids = instancePids(t.config.dataDir, survivor.id);
      expect(alive(survivorPids.recorder)).toBe(true);
      const victimPids = instancePids(t.config.dataDir, victim.id);
      process.kill(victimPids.recorder ?? 0, 'SIGKILL');
      await waitFor(() => !alive(victimPids.recorder), 'the victim recorder to die', 5000);

      app = await buildApp(t.config, { logger: false, clock: t.clock });
      apps.push(app);
      await app.ready();

      // Its window is still open: the restarted server starts it again, in the same folder.
      await waitFor(() => !alive(victimPids.ffmpeg), 'the orphaned ffmpeg to be stopped', 10_000);
      await waitFor(
        () => alive(instancePids(t.config.dataDir, victim.id).recorder),
        'the victim to be relaunched',
        15_000,
      );
      const resumed = await until(victim.id, 'to end its window', (d) => d.state === 'stopped', 40_000);
      expect(['captured', 'partial'], JSON.stringify(resumed.recording)).toContain(resumed.recording?.status);
      // What its playlist still listed when it was back is recorded too: a short death leaves no hole at all.
      expect(resumed.recording?.reconnects, JSON.stringify(resumed.recording)).toBeLessThanOrEqual(1);
      const victimLog = await get<{ logs: string[] }>(`/api/instances/${victim.id}/logs?lines=200&live=false`);
      expect(
        victimLog.logs.some((line) => /starting it again \(its window is still open, relaunch 1\)/.test(line)),
      ).toBe(true);

      // The survivor was never interrupted: one connection (so no hole while the server was away). On a
      // loaded machine its first seconds may come late (partial), so the proof is in its media, not its status.
      const done = await until(survivor.id, 'to complete after the restart', (d) => d.state === 'stopped', 30_000);
      const summary = JSON.stringify(done.recording);
      expect(['captured', 'partial'], summary).toContain(done.recording?.status);
      expect(done.recording?.reconnects, summary).toBe(0);
      const probe = await ffprobe(
        path.join(t.config.dataDir, 'recordings', 'restartm01', done.recording?.file_name ?? ''),
      );
      expect(probe.duration).toBeGreaterThanOrEqual((done.recording?.covered_seconds ?? 0) - 0.5);
      expect(probe.duration).toBeGreaterThan(9);
    },
  );
});
