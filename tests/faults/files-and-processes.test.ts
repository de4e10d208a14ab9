import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHlsSource, type HlsSource } from '../../testkit/capture';
import { spawnServer, type ServerProcess } from './support/server';
import { waitFor } from '../../testkit/wait';

const SECRETS = {
  METRICS_TOKEN: 'metrics-token-0123456789abcdef',
  AWS_SECRET_ACCESS_KEY: 'aws-secret-key-do-not-leak',
  AWS_ACCESS_KEY_ID: 'AKIAEXAMPLEKEY',
};
const STREAM_PASSWORD = 'stream-pass-9x7';
const mode = (file: string) => fs.statSync(file).mode & 0o777;
const environOf = (pid: number) => fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');

/**
 * The real server process and a real recording: what other local users and child processes can
 * read. The data folder and what is in it are private, recorders get none of the server's secrets,
 * stream credentials stay out of the logs, and the saved first password goes once it is changed.
 */
describe('files and processes', () => {
  let server: ServerProcess;
  let hls: HlsSource;

  beforeAll(async () => {
    hls = await startHlsSource();
    // No ADMIN_PASSWORD: the first start generates one and saves it to DATA_DIR/initial-admin-password.
    server = await spawnServer({ env: { ...SECRETS, ADMIN_PASSWORD: '' } });
  });
  afterAll(async () => {
    await server?.stop();
    await hls?.close();
  });

  it('keeps the data folder 0700 and the database, its WAL and the keys 0600', async () => {
    const token = await server.login(
      'admin',
      fs.readFileSync(path.join(server.dataDir, 'initial-admin-password'), 'utf8').trim(),
    );
    expect((await server.request('GET', '/api/auth/verify-token', { token })).status).toBe(200);
    expect(mode(server.dataDir)).toBe(0o700);
    for (const name of ['capture.db', 'capture.db-wal', 'secret.key', 'initial-admin-password']) {
      expect([name, mode(path.join(server.dataDir, name))]).toEqual([name, 0o600]);
    }
  });

  it('records with a private file, a recorder without the server secrets, and credentials out of every log', async () => {
    const token = await server.login(
      'admin',
      fs.readFileSync(path.join(server.dataDir, 'initial-admin-password'), 'utf8').trim(),
    );
    const url = hls.url.replace('http://', `http://viewer:${STREAM_PASSWORD}@`);
    const launch = await server.request<{ data: { instances: { id: string }[] } }>('POST', '/api/instances/launch', {
      token,
      body: { configs: [{ url, duration: 4, width: 320, height: 240 }], max_workers: 1 },
    });
    expect(launch.status, launch.text).toBe(200);
    const id = launch.body.data.instances[0].id;
    const instanceDir = path.join(server.dataDir, 'instances', id);
    const state = await waitFor(async () => {
      const file = path.join(instanceDir, 'state.json');
      if (!fs.existsSync(file)) return undefined;
      const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as { ffmpegPid: number | null };
      return parsed.ffmpegPid ? parsed : undefined;
    }, 'ffmpeg running');
    const recorderPid = Number(fs.readFileSync(path.join(instanceDir, 'recorder.pid'), 'utf8'));
    for (const pid of [recorderPid, state.ffmpegPid as number]) {
      const environ = environOf(pid);
      expect(environ.some((line) => line.startsWith('PATH='))).toBe(true);
      for (const [name, value] of Object.entries(SECRETS)) {
        expect(environ.filter((line) => line.startsWith(`${name}=`) || line.includes(value))).toEqual([]);
      }
    }

    const recordings = path.join(server.dataDir, 'recordings');
    const file = await waitFor(async () => {
      const dir = path.join(recordings, 'adhoc');
      const names = fs.existsSync(dir) ? fs.readdirSync(dir) : [];
      return names.length ? path.join(dir, names[0]) : undefined;
    }, 'the recording file');
    expect(mode(file)).toBe(0o600);
    expect(mode(recordings)).toBe(0o700);
    expect(mode(instanceDir)).toBe(0o700);

    await waitFor(
      async () => {
        const detail = await server.request<{ data: { state: string } }>('GET', `/api/instances/${id}`, { token });
        return detail.body.data.state === 'stopped';
      },
      'the recording to end',
      60_000,
    );
    const logs = await server.request('GET', `/api/instances/${id}/logs?lines=500`, { token });
    expect(logs.status).toBe(200);
    expect(logs.text).toContain('***@127.0.0.1');
    expect(logs.text).not.toContain(STREAM_PASSWORD);
    expect(fs.readFileSync(path.join(instanceDir, 'recorder.log'), 'utf8')).not.toContain(STREAM_PASSWORD);
    const activity = await server.request('GET', '/api/activity?limit=50', { token });
    expect(activity.text).toContain('instance.launch');
    expect(activity.text).not.toContain(STREAM_PASSWORD);
    expect(server.output()).not.toContain(STREAM_PASSWORD);
  });

  it('removes initial-admin-password once the first password is changed', async () => {
    const saved = path.join(server.dataDir, 'initial-admin-password');
    const token = await server.login('admin', fs.readFileSync(saved, 'utf8').trim());
    const changed = await server.request('POST', '/api/auth/change-password', {
      token,
      body: { current_password: fs.readFileSync(saved, 'utf8').trim(), new_password: 'Changed-admin-pass-1' },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(fs.existsSync(saved)).toBe(false);
    await server.login('admin', 'Changed-admin-pass-1');
  });
});
