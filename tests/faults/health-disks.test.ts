import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnServer, temporaryDir, type ServerProcess } from './support/server';
import { waitFor } from '../../testkit/wait';
import { unmount } from '../../testkit/tmpfs';

interface Health {
  overall_status: string;
  failing: string[];
  components: Record<string, { status: string; detail: string | null }>;
}

const canMount = process.getuid?.() === 0;

function mountTmpfs(dir: string, size: string): void {
  fs.mkdirSync(dir, { recursive: true });
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', dir]);
}

/** Fills the file system of `dir`, up to `leaveBytes`. */
function fill(dir: string, leaveBytes: number): void {
  const filler = path.join(dir, 'filler');
  spawnSync('dd', ['if=/dev/zero', `of=${filler}`, 'bs=4k'], { stdio: 'ignore' });
  if (leaveBytes > 0) fs.truncateSync(filler, Math.max(0, fs.statSync(filler).size - leaveBytes));
}

/**
 * Health that tells the truth about disks: the real server on a 32 MiB tmpfs (DATA_DIR, with the
 * SQLite database) and another for the recordings. Filling either turns health `degraded` with the
 * reason (lost activity entries: tests/server/security/health-honesty.test.ts).
 */
describe.skipIf(!canMount)('health with full disks (tmpfs, root)', () => {
  const dataDir = temporaryDir('health-disks');
  const recordingsDir = path.join(dataDir, 'recordings');
  let server: ServerProcess | undefined;
  let mounted: string[] = [];

  afterAll(async () => {
    await server?.stop();
    for (const dir of mounted.reverse()) await unmount(dir);
  });

  const health = async (token: string) =>
    (await server!.request<{ data: Health }>('GET', '/api/monitoring/system', { token })).body.data;

  it('degrades with the reason when the recordings disk, then the database disk, fills up', async () => {
    mountTmpfs(dataDir, '32m');
    mountTmpfs(recordingsDir, '32m');
    mounted = [dataDir, recordingsDir];
    server = await spawnServer({ dataDir });
    const token = await server.login();
    expect((await health(token)).components.recordings_disk.status).toBe('healthy');

    fill(recordingsDir, 256 * 1024);
    const recordingsFull = await waitFor(
      async () => {
        const report = await health(token);
        return report.failing.includes('recordings_disk') ? report : undefined;
      },
      'health to see the full recordings disk',
      30_000,
      1000,
    );
    expect(recordingsFull.overall_status).toBe('degraded');
    expect(recordingsFull.components.recordings_disk.detail).toMatch(/^The recordings disk is full: 0\.\d MiB free$/);

    fill(dataDir, 0);
    const databaseFull = await waitFor(
      async () => {
        const report = await health(token);
        return report.failing.includes('database_disk') ? report : undefined;
      },
      'health to see the full database disk',
      30_000,
      1000,
    );
    // Degraded, not down: the database still answers; writes may still fit in pages it already has.
    expect(databaseFull.overall_status).toBe('degraded');
    expect(databaseFull.components.database_disk.detail).toBe('The database disk is full: 0.0 MiB free');
    expect(server.running()).toBe(true);
  });
});
