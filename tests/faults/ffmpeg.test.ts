import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killRecorders } from '../../testkit/capture';
import { spawnServer, temporaryDir, type ServerProcess } from './support/server';
import { waitFor } from '../../testkit/wait';

// RTMP, which ffmpeg reads itself (the recorder reads HLS itself and needs ffmpeg only once media comes): every try runs ffmpeg.
const CONFIG = { url: 'rtmp://streams.example.com/live/mosque', duration: 6, width: 320, height: 240 };

interface Health {
  overall_status: string;
  failing: string[];
  components: Record<string, { status: string; detail: string | null }>;
}

interface Details {
  state: string;
  state_reason: string | null;
  recording: { status: string; reason: string | null } | null;
}

/**
 * ffmpeg missing or crashing under the real server: launches either answer 503 with the reason or
 * end as a failed recording with ffmpeg's own words, health says degraded and names the capture
 * component, and the server keeps serving.
 */
describe('ffmpeg missing or crashing', () => {
  const dirs: string[] = [];
  const servers: ServerProcess[] = [];

  afterAll(async () => {
    for (const server of servers) await server.kill('SIGKILL');
    for (const dir of dirs) killRecorders(dir);
  });

  async function start(ffmpegPath: string, dataDir = temporaryDir('ffmpeg')): Promise<ServerProcess> {
    dirs.push(dataDir);
    // Recorders retry every second or two, so a 6 s window sees ffmpeg fail several times.
    const server = await spawnServer({
      dataDir,
      env: { FFMPEG_PATH: ffmpegPath, RECORDER_RETRY_SECONDS: '1', RECORDER_RETRY_MAX_SECONDS: '2' },
    });
    servers.push(server);
    return server;
  }

  async function expectDegraded(server: ServerProcess, token: string, detail: RegExp): Promise<void> {
    const health = await server.request<{ data: Health }>('GET', '/api/monitoring/system', { token });
    expect(health.status).toBe(200);
    expect(health.body.data).toMatchObject({ overall_status: 'degraded', failing: ['aws'] });
    expect(health.body.data.components.aws.status).toBe('unhealthy');
    expect(health.body.data.components.aws.detail).toMatch(detail);
    expect(health.body.data.components.database.status).toBe('healthy');
  }

  it('missing: launch answers 503 with the reason, health is degraded, nothing is left behind', async () => {
    const server = await start('/nonexistent/ffmpeg');
    const token = await server.login();
    await expectDegraded(server, token, /ffmpeg at \/nonexistent\/ffmpeg does not run/);

    const launch = await server.request('POST', '/api/instances/launch', {
      token,
      body: { configs: [CONFIG], max_workers: 1 },
    });
    expect(launch.status).toBe(503);
    expect(launch.body).toMatchObject({
      success: false,
      detail: 'ffmpeg at /nonexistent/ffmpeg (FFMPEG_PATH) is not an executable file',
    });
    expect((await server.request<{ data: unknown[] }>('GET', '/api/instances/', { token })).body.data).toEqual([]);
    expect(server.running()).toBe(true);
  });

  it('crashing: each launch ends as a failed recording with the reason, and the server carries on', async () => {
    const bin = temporaryDir('fake-ffmpeg');
    dirs.push(bin);
    const fake = path.join(bin, 'ffmpeg');
    // Exits 1 with a message, or dies of SIGSEGV without a word, as the mode file says.
    fs.writeFileSync(
      fake,
      [
        '#!/bin/sh',
        'mode=$(cat "$(dirname "$0")/mode" 2>/dev/null)',
        'if [ "$mode" = segv ]; then kill -SEGV $$; fi',
        'echo "fake-ffmpeg: codec library failed to load" >&2',
        'exit 1',
        '',
      ].join('\n'),
      { mode: 0o755 },
    );
    const server = await start(fake);
    const token = await server.login();
    // A launch must name a mosque that exists.
    for (const mosque_id of ['crashexit1', 'crashsegv1'])
      await server.request('POST', '/api/config/mosques', {
        token,
        body: { mosque_id, name: `Mosque ${mosque_id}`, languages: ['en'] },
      });
    await expectDegraded(server, token, /ffmpeg at .*\/ffmpeg does not run/);

    const outcomes: Details[] = [];
    for (const mode of ['exit', 'segv']) {
      fs.writeFileSync(path.join(bin, 'mode'), mode);
      const launch = await server.request<{ data: { instances: { id: string }[] } }>('POST', '/api/instances/launch', {
        token,
        body: { configs: [{ ...CONFIG, mosque_id: `crash${mode}1` }], max_workers: 1 },
      });
      expect(launch.status, launch.text).toBe(200);
      const id = launch.body.data.instances[0].id;
      outcomes.push(
        await waitFor(async () => {
          const details = (await server.request<{ data: Details }>('GET', `/api/instances/${id}`, { token })).body.data;
          return details.recording?.status !== 'recording' && details.state === 'stopped' ? details : undefined;
        }, `the ${mode} capture to end`),
      );
    }
    const never = (why: string) => `The stream never came: ${why}`;
    expect(outcomes[0]).toMatchObject({
      state_reason: never('fake-ffmpeg: codec library failed to load'),
      recording: { status: 'failed', reason: never('fake-ffmpeg: codec library failed to load') },
    });
    expect(outcomes[1]).toMatchObject({
      state_reason: never('ffmpeg was killed (SIGSEGV)'),
      recording: { status: 'failed', reason: never('ffmpeg was killed (SIGSEGV)') },
    });
    expect(server.running()).toBe(true);
    expect((await server.request('GET', '/api/config/mosques', { token })).status).toBe(200);
  });
});
