import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { amiListResponseSchema } from '../../../contract/ami';
import {
  instanceDetailsResponseSchema,
  instancesListResponseSchema,
  type InstanceDetails,
} from '../../../contract/instances';
import type { ServerMessage } from '../../../contract/live';
import type { LiveClient } from '../../../server/modules/live/hub';
import { addMosques } from '../helpers/mosques';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { killRecorders, waitFor } from '../../../testkit/capture';
import { scaled } from '../../../testkit/time-scale';

/** A live-feed client that records what the hub sends it. */
function fakeClient(): { client: LiveClient; messages: ServerMessage[] } {
  const messages: ServerMessage[] = [];
  const socket = {
    readyState: 1,
    OPEN: 1,
    bufferedAmount: 0,
    send: (payload: string) => messages.push(JSON.parse(payload) as ServerMessage),
    close: () => undefined,
    terminate: () => undefined,
  };
  return {
    client: {
      socket: socket as unknown as WebSocket,
      token: 'test',
      sessionId: 'test',
      userId: 1,
      logSubscriptions: new Set(),
    },
    messages,
  };
}

describe('instances and AMI endpoints (local driver)', () => {
  let t: TestApp;
  let token: string;
  /** An instance whose recorder already ended: its stream could not be opened. */
  let ended: InstanceDetails;
  const live = fakeClient();

  const launchBody = (config: Record<string, unknown>) => ({ configs: [config], max_workers: 1 });
  const post = (url: string, payload?: unknown) =>
    t.request({ method: 'POST', url, token, ...(payload === undefined ? {} : { payload: payload as object }) });
  const get = (url: string) => t.request({ method: 'GET', url, token });
  const details = async (id: string) =>
    instanceDetailsResponseSchema.parse((await get(`/api/instances/${id}`)).json()).data;

  beforeAll(async () => {
    t = await createTestApp();
    token = await t.login();
    await t.app.ready();
    t.app.ctx.hub.add(live.client);
    await addMosques(t, token, 'abc123xyz0', 'mosqueone1', 'mosquetwo2', 'mosquethr3');
    // Nothing listens on port 9: the recorder is refused until its 3 s window closes, leaving an ended instance.
    const response = await post(
      '/api/instances/launch',
      launchBody({
        url: 'http://127.0.0.1:9/nothing.m3u8',
        duration: 3,
        width: 320,
        height: 240,
        mosque_id: 'abc123xyz0',
      }),
    );
    expect(response.statusCode, response.body).toBe(200);
    const id = response.json<{ data: { instances: { id: string }[] } }>().data.instances[0].id;
    ended = await waitFor(async () => {
      const d = await details(id);
      return d.state === 'stopped' ? d : undefined;
    }, 'the failing recorder to end');
  });

  afterAll(async () => {
    t.app.ctx.hub.remove(live.client);
    killRecorders(t.config.dataDir);
    await t?.close();
  });

  it('needs a session', async () => {
    for (const [method, url] of [
      ['GET', '/api/instances/'],
      ['POST', '/api/instances/launch'],
      ['POST', '/api/instances/terminate-all?force=true'],
      ['GET', '/api/ami/list'],
      ['GET', '/api/recordings'],
    ] as const) {
      expect((await t.request({ method, url })).statusCode, url).toBe(401);
    }
  });

  it('lists instances in the contract shape, with and without the trailing slash', async () => {
    const list = instancesListResponseSchema.parse((await get('/api/instances/')).json()).data;
    expect(list).toEqual([
      expect.objectContaining({
        id: ended.id,
        instance_id: ended.id,
        state: 'stopped',
        mosque_id: 'abc123xyz0',
        recording_status: 'failed',
        duration: 3,
        method: 'api',
      }),
    ]);
    expect((await get('/api/instances')).json().data).toEqual(list);
    // The dead stream's reason; on a busy host the recorder may start after the 3 s window instead, which it says.
    expect(ended.recording?.reason).toMatch(/refused|could not|error|started \d+ s after the window opened/i);
  });

  it('answers unknown ids with 404', async () => {
    expect((await get('/api/instances/cap-000000000000')).statusCode).toBe(404);
    expect((await get('/api/instances/cap-000000000000/logs?lines=100&live=true')).json()).toMatchObject({
      detail: 'Instance cap-000000000000 not found',
    });
    const terminate = await post('/api/instances/terminate', { instance_ids: ['cap-000000000000'] });
    expect(terminate.statusCode).toBe(404);
    expect((await get('/api/recordings/rec-000000000000/file')).statusCode).toBe(404);
  });

  it('refuses to terminate an instance that is not running with 409', async () => {
    const response = await post('/api/instances/terminate', { instance_ids: [ended.id] });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      success: false,
      detail: `Instance ${ended.id} is not running (it is stopped)`,
      error: `Instance ${ended.id} is not running (it is stopped)`,
    });
  });

  it('rejects stream URLs that are not network streams, and bad frame sizes, with 400', async () => {
    for (const url of [
      'file:///etc/passwd',
      '/var/lib/stream.mp4',
      'concat:a.ts|b.ts',
      'ftp://example.com/x',
      'http://',
      'http://exa mple.com/x',
      '',
    ]) {
      const response = await post('/api/instances/launch', launchBody({ url }));
      expect(response.statusCode, url).toBe(400);
    }
    expect(
      (await post('/api/instances/launch', launchBody({ url: 'https://example.com/live.m3u8', width: 321 }))).json()
        .detail,
    ).toMatch(/even/);
    expect(
      (await post('/api/instances/launch', launchBody({ url: 'https://example.com/live.m3u8', duration: 0 })))
        .statusCode,
    ).toBe(400);
    expect(
      (await post('/api/instances/launch', launchBody({ url: 'https://example.com/live.m3u8', mosque_id: '../etc' })))
        .statusCode,
    ).toBe(400);
    expect(
      (
        await post('/api/instances/launch', {
          configs: [{ url: 'https://example.com/live.m3u8' }],
          max_workers: 1,
          extra: 1,
        })
      ).statusCode,
    ).toBe(400);
    expect((await post('/api/instances/launch', { configs: [], max_workers: 1 })).statusCode).toBe(400);
  });

  it('emergency stop needs force=true and reports per instance', async () => {
    expect((await post('/api/instances/terminate-all')).statusCode).toBe(400);
    const response = await post('/api/instances/terminate-all?force=true');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      message: 'No running or pending instances',
      data: { results: [], terminated: 0, failed: 0 },
    });
  });

  it('serves logs and pushes fleet changes on the live feed', async () => {
    // The tail of the whole log, as many lines as asked (how often the refused recorder tried depends on the machine's load).
    const whole = (await get(`/api/instances/${ended.id}/logs?lines=100`)).json().data.logs as string[];
    expect(whole.length).toBeGreaterThan(1);
    const logs = (await get(`/api/instances/${ended.id}/logs?lines=1`)).json();
    expect(logs.data.logs).toEqual(whole.slice(-1));
    expect(logs.data.logs.at(-1)).toMatch(/finished: failed/);

    const types = live.messages.map((m) => m.type);
    expect(types).toContain('launch_complete');
    expect(types).toContain('instance_status_update');
    expect(types).toContain('recordings_update');
    const lastUpdate = live.messages.filter((m) => m.type === 'instance_status_update').at(-1);
    expect(lastUpdate).toMatchObject({ data: [expect.objectContaining({ id: ended.id, state: 'stopped' })] });

    live.messages.length = 0;
    await t.app.ctx.hub.handlerFor('request_logs')?.(live.client, {
      action: 'request_logs',
      instance_id: ended.id,
    } as never);
    expect(live.messages).toEqual([
      {
        type: 'instance_logs',
        instance_id: ended.id,
        logs: expect.arrayContaining([expect.stringMatching(/finished: failed/)]),
      },
    ]);

    const initial = await t.app.ctx.hub.loadInitialData();
    expect(initial.instances.map((i) => i.id)).toEqual([ended.id]);
    expect(initial.recordings.map((r) => r.instance_id)).toEqual([ended.id]);
  });

  it('a provider failure is a 503 with its reason, a launch_error, and leaves no instance', async () => {
    const broken = await createTestApp({ env: { FFMPEG_PATH: '/nonexistent/ffmpeg' } });
    try {
      const feed = fakeClient();
      broken.app.ctx.hub.add(feed.client);
      const brokenToken = await broken.login();
      await addMosques(broken, brokenToken, 'brokenm001');
      const response = await broken.request({
        method: 'POST',
        url: '/api/instances/launch',
        token: brokenToken,
        payload: launchBody({
          url: 'https://example.com/live.m3u8',
          duration: 5,
          width: 320,
          height: 240,
          mosque_id: 'brokenm001',
        }),
      });
      expect(response.statusCode).toBe(503);
      expect(response.json().detail).toBe('ffmpeg at /nonexistent/ffmpeg (FFMPEG_PATH) is not an executable file');
      await broken.app.ctx.hub.flushed();
      expect(feed.messages).toContainEqual({
        type: 'launch_error',
        event_id: expect.any(Number),
        data: {
          instance_id: null,
          mosque_id: 'brokenm001',
          job_id: null,
          message: 'Failed to launch: ffmpeg at /nonexistent/ffmpeg (FFMPEG_PATH) is not an executable file',
        },
      });
      expect((await broken.request({ method: 'GET', url: '/api/instances/', token: brokenToken })).json().data).toEqual(
        [],
      );
      expect(await broken.app.ctx.capture.health()).toMatchObject({ provider: 'local', status: 'down' });
    } finally {
      await broken.close();
    }
  });

  it('launches several configs with max_workers at a time', async () => {
    const configs = ['mosqueone1', 'mosquetwo2', 'mosquethr3'].map((mosque_id) => ({
      url: `http://127.0.0.1:9/${mosque_id}.m3u8`,
      duration: 5,
      width: 320,
      height: 240,
      mosque_id,
    }));
    const response = await post('/api/instances/launch', { configs, max_workers: 2 });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().message).toBe('Launched 3 instances');
    expect(response.json().data.instances.map((i: { mosque_id: string }) => i.mosque_id)).toEqual([
      'mosqueone1',
      'mosquetwo2',
      'mosquethr3',
    ]);
    expect(response.json().data.failed).toEqual([]);
  });

  it('terminates a pending instance whose stream never answers', async () => {
    const silent = http.createServer(() => undefined); // accepts, never answers
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/live.m3u8`;
      const launched = await post('/api/instances/launch', launchBody({ url, duration: 60, width: 320, height: 240 }));
      const id = launched.json().data.instances[0].id as string;
      await waitFor(
        async () => fs.existsSync(path.join(t.config.dataDir, 'instances', id, 'state.json')),
        'the recorder to start',
      );
      expect((await details(id)).state).toBe('pending');
      const terminated = await post('/api/instances/terminate', { instance_ids: [id] });
      expect(terminated.statusCode, terminated.body).toBe(200);
      const ended = await waitFor(
        async () => {
          const d = await details(id);
          return d.state === 'terminated' ? d : undefined;
        },
        'the pending instance to terminate',
        20_000,
      );
      expect(ended.running_at).toBeNull();
      expect(ended.recording).toMatchObject({ status: 'failed', reason: 'Stopped by admin' });
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('creates a local image from an instance, launches from the latest image, and deletes it', async () => {
    expect(
      (await post('/api/ami/create', { instance_id: 'cap-000000000000', name: 'recorder', version: '1.0.0' }))
        .statusCode,
    ).toBe(404);
    expect(
      (await post('/api/ami/create', { instance_id: ended.id, name: 'recorder', version: 'one' })).statusCode,
    ).toBe(400);

    const created = await post('/api/ami/create', {
      instance_id: ended.id,
      name: 'recorder',
      description: 'Recorder runtime',
      version: '1.2.0',
      tags: { team: 'ops' },
    });
    expect(created.statusCode, created.body).toBe(200);
    const { ami_id, name } = created.json().data as { ami_id: string; name: string };
    expect(name).toBe('recorder-20261123-090000');
    expect(created.json().message).toBe(`AMI creation initiated: ${ami_id}`);

    const ami = await waitFor(async () => {
      const amis = amiListResponseSchema.parse((await get('/api/ami/list')).json()).data.amis;
      return amis.find((a) => a.ami_id === ami_id && a.state === 'available');
    }, 'the image to be available');
    expect(ami).toMatchObject({
      name,
      description: 'Recorder runtime',
      version: '1.2.0',
      is_latest: true,
      tags: { team: 'ops' },
      source_instance_id: ended.id,
    });
    expect(ami.size_gb).toBeGreaterThan(0);
    expect(fs.existsSync(path.join(t.config.dataDir, 'images', ami_id, 'runtime', 'recorder.mjs'))).toBe(true);

    const launched = await post(
      '/api/instances/launch',
      launchBody({ url: 'http://127.0.0.1:9/again.m3u8', duration: 5, width: 320, height: 240 }),
    );
    const fromImage = await details(launched.json().data.instances[0].id as string);
    expect(fromImage.image_id).toBe(ami_id);

    const deleted = await t.request({ method: 'DELETE', url: `/api/ami/${ami_id}`, token });
    expect(deleted.json()).toEqual({ success: true, message: `AMI ${ami_id} deleted successfully` });
    expect(fs.existsSync(path.join(t.config.dataDir, 'images', ami_id))).toBe(false);
    expect((await t.request({ method: 'DELETE', url: `/api/ami/${ami_id}`, token })).statusCode).toBe(404);
    // Empty, and the list says images are optional here: the local provider records without one.
    expect((await get('/api/ami/list')).json().data).toEqual({ amis: [], provider: 'local' });
  });

  it('refuses to delete an image that is still pending with 409', async () => {
    const dir = path.join(t.config.dataDir, 'images', 'ami-local-pending00001');
    fs.mkdirSync(dir, { recursive: true });
    const now = t.clock.now().toISOString();
    fs.writeFileSync(
      path.join(dir, 'image.json'),
      JSON.stringify({
        imageId: 'ami-local-pending00001',
        name: 'p',
        description: '',
        version: '1.0.0',
        state: 'pending',
        sizeGb: 0,
        sizeBytes: 0,
        createdAt: now,
        updatedAt: now,
        tags: {},
        sourceInstanceId: null,
      }),
    );
    const response = await t.request({ method: 'DELETE', url: '/api/ami/ami-local-pending00001', token });
    expect(response.statusCode).toBe(409);
    expect(response.json().detail).toMatch(/still being created/);
  });

  it('has no demo stream when DEMO_STREAM is off', async () => {
    expect((await get('/api/instances/demo-stream')).json()).toEqual({ success: true, data: { url: null } });
    expect((await t.request({ method: 'GET', url: '/demo/stream.m3u8' })).statusCode).toBe(404);
  });
});

describe('demo stream', () => {
  it('serves a live HLS test broadcast that the local driver can record', { timeout: scaled(90_000) }, async () => {
    const t = await createTestApp({ env: { DEMO_STREAM: '1' } });
    try {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const token = await t.login();
      const { url } = (await t.request({ method: 'GET', url: '/api/instances/demo-stream', token })).json().data as {
        url: string;
      };
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/demo\/stream\.m3u8$/);
      const playlist = await waitFor(
        async () => {
          const response = await fetch(url);
          const text = await response.text();
          return response.ok && text.includes('#EXTINF') ? text : undefined;
        },
        'the demo playlist',
        20_000,
      );
      expect(playlist).toContain('#EXTM3U');
      expect((await t.request({ method: 'GET', url: '/demo/..%2Fsecret.key' })).statusCode).toBe(404);

      const launched = await t.request({
        method: 'POST',
        url: '/api/instances/launch',
        token,
        payload: { configs: [{ url, duration: 8, width: 320, height: 180 }], max_workers: 1 },
      });
      const id = launched.json().data.instances[0].id as string;
      const done = await waitFor(
        async () => {
          const d = (await t.request({ method: 'GET', url: `/api/instances/${id}`, token })).json()
            .data as InstanceDetails;
          return d.state === 'stopped' ? d : undefined;
        },
        'the demo capture to finish',
        45_000,
      );
      // The demo stream records (how much of the window depends on how fast the recorder starts: on a
      // busy machine a 2 s window could close before the first segment arrived).
      expect(['captured', 'partial']).toContain(done.recording?.status);
      expect(done.recording?.covered_seconds).toBeGreaterThan(0);
    } finally {
      killRecorders(t.config.dataDir);
      await t.close();
    }
  });
});
