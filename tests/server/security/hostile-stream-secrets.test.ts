import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskUrlSecrets } from '../../../recorder/url-secrets';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { connectAs, listen } from '../live/live-client';
import { routeEntries } from './routes';

// PostgreSQL pass: runs: the answers come from the database

const PASSWORD = 'Stream-Pa55word-7741';
const TOKEN = 'tok-93f1c0ffee42';
const SIGNATURE = 'sig-a8b7c6d5e4';
/** A stream that needs a password and a signed query; port 9 (discard) on loopback: nothing answers. */
const SECRET_URL = `http://encoder:${PASSWORD}@127.0.0.1:9/live/index.m3u8?token=${TOKEN}&X-Amz-Signature=${SIGNATURE}&quality=hd`;
const SECRETS = [PASSWORD, TOKEN, SIGNATURE];

const expectNoSecret = (where: string, body: string) => {
  for (const secret of SECRETS) expect(body, `${where} shows ${secret}`).not.toContain(secret);
};

describe('maskUrlSecrets', () => {
  it.each([
    ['http://u:p@host/x.m3u8', 'http://***@host/x.m3u8'],
    ['rtmp://u:p%40ss@host:1935/live/key', 'rtmp://***@host:1935/live/key'],
    ['http://a@b:c@host/x', 'http://***@host/x'],
    ['https://h/x.m3u8?token=abc&q=1#t=2', 'https://h/x.m3u8?token=***&q=1#t=2'],
    [
      'https://h/x?access_token=a&apiKey=b&Signature=c&Policy=d&hdnts=e&st=f',
      'https://h/x?access_token=***&apiKey=***&Signature=***&Policy=***&hdnts=***&st=***',
    ],
    ['https://h/x?quality=hd&lang=ar', 'https://h/x?quality=hd&lang=ar'],
    [
      'yt-dlp could not resolve https://u:p@h/p?token=z: 403',
      'yt-dlp could not resolve https://***@h/p?token=***: 403',
    ],
    ['no URL here: token=abc', 'no URL here: token=abc'],
  ])('%s -> %s', (text, masked) => {
    expect(maskUrlSecrets(text)).toBe(masked);
    expect(maskUrlSecrets(masked)).toBe(masked);
  });
});

/**
 * A stream URL's password and signed query parameters stay on the server: every answer to every role
 * (the launch answer, every GET of the API with the instance's and the recording's ids, the live feed)
 * shows the URL with them masked, while the recorder is given the full URL.
 */
describe('hostile reading: stream URL secrets in answers', () => {
  let t: TestApp;
  const routes: RouteOptions[] = [];
  const tokens: Record<string, string> = {};
  let instanceId: string;
  let recordingId: string;
  const mosqueId = 'secretmosq';
  const MASKED_URL = 'http://***@127.0.0.1:9/live/index.m3u8?token=***&X-Amz-Signature=***&quality=hd';
  const storedIdToken = async () =>
    (
      await t.app.ctx.db.kysely
        .selectFrom('mosques')
        .select('id_token')
        .where('mosque_id', '=', mosqueId)
        .executeTakeFirstOrThrow()
    ).id_token;

  beforeAll(async () => {
    t = await createTestApp({ build: { onRoute: (route) => routes.push(route), healthCheckIntervalMs: 0 } });
    tokens.superuser = await t.login();
    tokens.admin = (await t.createUser({ username: 'plain-admin', role: 'admin' })).token;
    tokens.user = (await t.createUser({ username: 'plain-user', role: 'user' })).token;
    const launch = await t.request({
      method: 'POST',
      url: '/api/instances/launch',
      token: tokens.user,
      payload: { configs: [{ url: SECRET_URL, duration: 60, width: 320, height: 240 }], max_workers: 1 },
    });
    expect(launch.statusCode, launch.body).toBe(200);
    expectNoSecret('the launch answer', launch.body);
    const instance = launch.json<{ data: { instances: { id: string; url: string }[] } }>().data.instances[0];
    expect(instance.url).toBe('http://***@127.0.0.1:9/live/index.m3u8?token=***&X-Amz-Signature=***&quality=hd');
    instanceId = instance.id;
    const recording = await t.app.ctx.db.kysely
      .selectFrom('recordings')
      .select(['id', 'url'])
      .where('instance_id', '=', instanceId)
      .executeTakeFirstOrThrow();
    recordingId = recording.id;
    // The full URL stays server-side: the recorder records from it.
    expect(recording.url).toBe(new URL(SECRET_URL).href);
    const mosque = await t.request({
      method: 'POST',
      url: '/api/config/mosques',
      token: tokens.user,
      payload: { mosque_id: mosqueId, name: 'Secret stream', languages: ['ar'], ID_token: SECRET_URL },
    });
    expect(mosque.statusCode, mosque.body).toBe(201);
    expectNoSecret('the mosque create answer', mosque.body);
    expect(mosque.json<{ data: { ID_token: string } }>().data.ID_token).toBe(MASKED_URL);
    expect(await storedIdToken()).toBe(new URL(SECRET_URL).href);
  });
  afterAll(async () => {
    await t.request({
      method: 'POST',
      url: '/api/instances/terminate',
      token: tokens.superuser,
      payload: { instance_ids: [instanceId] },
    });
    await t.close();
  });

  it('no GET of the API shows the password or a token, to any role', async () => {
    const gets = routeEntries(routes).filter((entry) => entry.method === 'GET' && !entry.websocket);
    expect(gets.length).toBeGreaterThan(20);
    let asked = 0;
    for (const [role, token] of Object.entries(tokens)) {
      for (const entry of gets) {
        for (const id of [instanceId, recordingId, mosqueId]) {
          const url = entry.url.replace(/:[A-Za-z0-9_]+/g, id).replace(/\*$/, 'no-such-file');
          const response = await t.request({ method: 'GET', url, token });
          expectNoSecret(`${role} GET ${url} (${response.statusCode})`, response.body);
          asked++;
        }
      }
    }
    // The answers that do show the stream show it masked.
    for (const url of [
      '/api/instances',
      `/api/instances/${instanceId}`,
      '/api/recordings',
      '/api/activity',
      '/api/config/mosques',
      '/api/config/mosques?limit=10',
      `/api/config/mosques/${mosqueId}`,
    ]) {
      const body = (await t.request({ method: 'GET', url, token: tokens.superuser })).body;
      expect(body, url).toContain('http://***@127.0.0.1:9/live/index.m3u8?token=***');
    }
    expect(asked).toBeGreaterThan(100);
  });

  it('a mosque saved with its masked stream unchanged keeps the full one; a new stream replaces it', async () => {
    const shown = (await t.request({ url: `/api/config/mosques/${mosqueId}`, token: tokens.user })).json<{
      data: { ID_token: string };
    }>().data;
    const save = (ID_token: string) =>
      t.request({
        method: 'PUT',
        url: `/api/config/mosques/${mosqueId}`,
        token: tokens.user,
        payload: { name: 'Secret stream, renamed', ID_token },
      });
    const saved = await save(shown.ID_token);
    expect(saved.statusCode, saved.body).toBe(200);
    expectNoSecret('the mosque update answer', saved.body);
    expect(await storedIdToken()).toBe(new URL(SECRET_URL).href);
    const other = 'https://streams.example.org/x.m3u8?token=***';
    expect((await save(other)).statusCode).toBe(200);
    expect(await storedIdToken()).toBe(other);
    expect((await save(SECRET_URL)).statusCode).toBe(200);
    expect(await storedIdToken()).toBe(new URL(SECRET_URL).href);
  });

  it('a generated configuration file shows the stream masked', async () => {
    const generated = await t.request({
      method: 'POST',
      url: '/api/config/generate',
      token: tokens.user,
      payload: { mosque_ids: [mosqueId] },
    });
    expect(generated.statusCode, generated.body).toBe(200);
    expectNoSecret('the generated configurations', generated.body);
    expect(generated.json<{ data: { recordings: { url: string }[] } }>().data.recordings[0].url).toBe(MASKED_URL);
  });

  it('the live feed shows the stream masked', async () => {
    const url = await listen(t.app);
    for (const token of Object.values(tokens)) {
      const client = await connectAs(url, token);
      const initial = await client.next('initial_data');
      expect(initial.data.instances.find((i) => i.id === instanceId)?.url).toContain('token=***');
      client.send({ action: 'subscribe_logs', instance_id: instanceId });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expectNoSecret('the live feed', JSON.stringify(client.received));
      await client.close();
    }
  });
});
