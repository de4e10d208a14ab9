import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killRecorders, startHlsSource, type HlsSource } from '../../testkit/capture';
import { spawnServer, temporaryDir, type ServerProcess } from './support/server';
import { waitFor } from '../../testkit/wait';
import { unmount } from '../../testkit/tmpfs';

const NO_SPACE = /No space left on device/;

interface Details {
  state: string;
  state_reason: string | null;
  recording: {
    status: string;
    reason: string | null;
    bytes: number;
    file_name: string | null;
    download_url: string | null;
  } | null;
}

/** A 4 MiB tmpfs over DATA_DIR/recordings, when this machine lets us mount one (root, no seccomp veto). */
function mountSmallDisk(dir: string): boolean {
  fs.mkdirSync(dir, { recursive: true });
  if (process.getuid?.() !== 0) return false;
  return spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=4m,mode=0755', 'tmpfs', dir], { stdio: 'ignore' }).status === 0;
}

/**
 * The disk fills up under a running recording. The recording must end as failed with the system's
 * reason ("No space left on device"), not hang or pass for complete, and the server carries on. On a
 * real small file system (tmpfs) when the machine allows mounting one; otherwise the error is injected
 * by an ffmpeg wrapper that writes to /dev/full, which fails every write with ENOSPC.
 */
describe('disk full while recording', () => {
  const dataDir = temporaryDir('diskfull');
  const recordingsDir = path.join(dataDir, 'recordings');
  const mounted = mountSmallDisk(recordingsDir);
  let source: HlsSource | undefined;
  let server: ServerProcess | undefined;

  afterAll(async () => {
    await server?.kill('SIGKILL');
    killRecorders(dataDir);
    await source?.close();
    if (mounted) await unmount(recordingsDir);
  });

  it(`marks the recording failed with the reason (${mounted ? 'a 4 MiB tmpfs' : 'injected ENOSPC: this machine cannot mount'})`, async () => {
    source = await startHlsSource();
    const env: Record<string, string> = { STALL_TIMEOUT_SECONDS: '20' };
    if (mounted) {
      // Leave about 1.5 MB: a few seconds of media, then the disk is full. The segment queue shares the
      // disk (on a busy machine the first segments wait there while ffmpeg starts: about 86 KB each), so
      // the room must hold that backlog and the first pieces, as a real disk would.
      execFileSync('dd', ['if=/dev/zero', `of=${path.join(recordingsDir, 'filler')}`, 'bs=1k', 'count=2560'], {
        stdio: 'ignore',
      });
    } else {
      const wrapper = path.join(dataDir, 'ffmpeg-to-dev-full');
      fs.writeFileSync(
        wrapper,
        '#!/bin/bash\nargs=("$@")\nif [ $# -gt 2 ]; then args[-1]=/dev/full; fi\nexec ffmpeg "${args[@]}"\n',
        { mode: 0o755 },
      );
      env.FFMPEG_PATH = wrapper;
    }
    server = await spawnServer({ dataDir, env });
    const api = server;
    const token = await api.login();
    // A launch must name a mosque that exists.
    for (const mosque_id of ['diskfull01', 'diskfull02'])
      await api.request('POST', '/api/config/mosques', {
        token,
        body: { mosque_id, name: `Mosque ${mosque_id}`, languages: ['en'] },
      });

    const launchAndWait = async (mosqueId: string) => {
      const launch = await api.request<{ data: { instances: { id: string }[] } }>('POST', '/api/instances/launch', {
        token,
        body: {
          configs: [{ url: source?.url, duration: 120, width: 640, height: 360, mosque_id: mosqueId }],
          max_workers: 1,
        },
      });
      expect(launch.status, launch.text).toBe(200);
      const id = launch.body.data.instances[0].id;
      return waitFor(
        async () => {
          const details = (await api.request<{ data: Details }>('GET', `/api/instances/${id}`, { token })).body.data;
          return details.state === 'stopped' && details.recording?.status !== 'recording' ? details : undefined;
        },
        `the ${mosqueId} recording to end`,
        90_000,
        500,
      );
    };

    const filled = await launchAndWait('diskfull01');
    expect(filled.recording?.status, JSON.stringify(filled)).toBe('failed');
    expect(filled.recording?.reason).toMatch(NO_SPACE);
    expect(filled.state_reason).toMatch(NO_SPACE);

    if (mounted) {
      // It recorded until the disk was full, and what it wrote is kept: the pieces when there is no room to
      // join them, or the joined file when the run's segment queue (removed with its run) freed that room.
      const folder = path.join(recordingsDir, 'diskfull01');
      const stem = (filled.recording?.file_name ?? '').replace(/\.mp4$/, '');
      const parts = path.join(folder, `${stem}.parts`);
      if (fs.existsSync(parts)) {
        const pieces = fs
          .readdirSync(parts)
          .filter((name) => name.endsWith('.ts') && fs.statSync(path.join(parts, name)).size > 0);
        expect(pieces.length).toBeGreaterThan(0);
        expect(filled.recording?.download_url ?? null).toBeNull();
      } else {
        expect(fs.statSync(path.join(folder, `${stem}.mp4`)).size).toBeGreaterThan(0);
        expect(filled.recording?.bytes).toBeGreaterThan(0);
      }
      // A second recording on the full disk fails the same way, at once.
      const second = await launchAndWait('diskfull02');
      expect(second.recording).toMatchObject({ status: 'failed', reason: expect.stringMatching(NO_SPACE) });
    }

    const recordings = await api.request<{ data: { recordings: { status: string; reason: string | null }[] } }>(
      'GET',
      '/api/recordings',
      { token },
    );
    expect(recordings.body.data.recordings.every((r) => r.status === 'failed' && NO_SPACE.test(r.reason ?? ''))).toBe(
      true,
    );
    expect(api.running(), api.output()).toBe(true);
    expect((await api.request('GET', '/api/config/mosques', { token })).status).toBe(200);
    await api.stop();
    server = undefined;
  });
});
