import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../server/db';
import type { NewJobRow } from '../../../server/modules/scheduler/repository';
import { fridayJobRow } from '../../../testkit/job-row';
import { freePort } from '../../../testkit/ports';
import { createPostgresDatabase } from '../../../testkit/test-database';
import { waitFor } from '../../../testkit/wait';
import { scaled } from '../../../testkit/time-scale';

const MINUTE = 60_000;

/** Nothing listens at its address: the recorder starts and ends at once, the launch itself succeeds. */
const jobRow = (id: string, start: number, extra: Partial<NewJobRow> = {}) =>
  fridayJobRow(id, start, { url: 'http://127.0.0.1:9/unreachable.m3u8', ...extra });

/** Recorders outlive the server by design; the test stops the ones it caused, by their pid files. */
function stopRecorders(dataDir: string): void {
  const root = path.join(dataDir, 'instances');
  if (!fs.existsSync(root)) return;
  for (const folder of fs.readdirSync(root)) {
    const pidFile = path.join(root, folder, 'recorder.pid');
    if (!fs.existsSync(pidFile)) continue;
    const pid = Number(fs.readFileSync(pidFile, 'utf8').trim());
    if (!Number.isInteger(pid) || pid <= 0) continue;
    // Only a process that is still this folder's recorder (a pid may be reused once it has exited).
    const cmdline = fs.existsSync(`/proc/${pid}/cmdline`) ? fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8') : '';
    if (!cmdline.includes(path.join(root, folder))) continue;
    for (const target of [-pid, pid]) {
      try {
        process.kill(target, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
}

/**
 * The real server, SIGKILLed while jobs fall due and started again: every job ends launched or
 * missed per the misfire policy, and no job gets two recorders.
 */
describe('scheduler across a SIGKILL', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'capture-restart-'));
  let databaseUrl: string | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;
  let server: ChildProcess | undefined;

  afterAll(async () => {
    if (server?.pid && server.exitCode === null) {
      process.kill(-server.pid, 'SIGKILL');
    }
    stopRecorders(dataDir);
    await dropDatabase?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function startServer(port: number): Promise<ChildProcess> {
    const child = spawn(path.resolve('node_modules/.bin/tsx'), ['server/main.ts'], {
      // Own process group: the kill reaches tsx and the server it runs (recorders have their own groups).
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: {
        ...process.env,
        NODE_ENV: 'production',
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        ADMIN_PASSWORD: 'Admin-pass-1',
        LOG_LEVEL: 'warn',
        DEMO_STREAM: '0',
        ALLOW_PRIVATE_STREAM_HOSTS: '1',
        CAPTURE_PROVIDER: 'local',
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : { DATABASE_URL: '' }),
      },
    });
    await waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
        const response = await fetch(`http://127.0.0.1:${port}/api/scheduler/status`).catch(() => undefined);
        return response?.status === 401;
      },
      'the server to listen',
      60_000,
      100,
    );
    return child;
  }

  const readJobs = async (db: Db) =>
    Object.fromEntries(
      (await db.kysely.selectFrom('scheduler_jobs').selectAll().where('kind', '=', 'recording').execute()).map((j) => [
        j.id,
        j,
      ]),
    );

  it(
    'launches or misses every job per policy, none twice',
    async () => {
      if (process.env.TEST_DATABASE_URL) {
        const pg = await createPostgresDatabase(process.env.TEST_DATABASE_URL);
        databaseUrl = pg.url;
        dropDatabase = pg.drop;
      }
      // Seed jobs straight into the database, as if scheduled before an outage.
      const db = await openDatabase({ dataDir, databaseUrl });
      const t0 = Date.now();
      const deadPid = spawnSync(process.execPath, ['-e', '0']).pid;
      // Spread wide enough that a slow start (a loaded machine) still leaves some due after the kill.
      const burst = Array.from({ length: 10 }, (_, i) => jobRow(`burst-${i}`, t0 + 12_000 + i * 3000));
      await db.kysely
        .insertInto('scheduler_jobs')
        .values([
          jobRow('late', t0 - 10 * MINUTE),
          jobRow('ended', t0 - 3 * 60 * MINUTE),
          jobRow('crashed', t0 - MINUTE, {
            status: 'launching',
            attempts: 1,
            claimed_by: `${os.hostname()}/${deadPid}/00000000`,
            claimed_at: new Date(t0 - 30_000).toISOString(),
          }),
          ...burst,
        ])
        .execute();

      const port = await freePort();
      server = await startServer(port);
      // Kill it in the middle of the burst: some launched, some due while it is down.
      await waitFor(
        async () => (await readJobs(db))['burst-1']?.status === 'launched',
        'part of the burst to launch',
        60_000,
        100,
      );
      process.kill(-(server.pid ?? 0), 'SIGKILL');
      await new Promise((resolve) => server?.once('exit', resolve));
      const atKill = await readJobs(db);
      expect(Object.values(atKill).some((j) => j.status === 'scheduled')).toBe(true);
      const dueWhileDown = () =>
        Object.values(atKill).some(
          (j) => j.status === 'scheduled' && j.recording_start !== null && Date.parse(j.recording_start) <= Date.now(),
        );
      await waitFor(dueWhileDown, 'a job to come due while the server is down', 60_000, 100);

      server = await startServer(port);
      const settleReport = async () =>
        `every job to settle: ${JSON.stringify(Object.values(await readJobs(db)).map((j) => [j.id, j.status, j.attempts, j.last_error]))}`;
      const jobs = await waitFor(
        async () => {
          const all = await readJobs(db);
          return Object.values(all).every((j) => j.status === 'launched' || j.status === 'missed') && all;
        },
        settleReport,
        60_000,
        100,
      );

      expect(jobs.ended).toMatchObject({ status: 'missed', attempts: 0 });
      expect(jobs.late).toMatchObject({ status: 'launched', late: 1, attempts: 1 });
      // Its dead claim is taken over: attempt 2, or 3 when a busy machine's first server was itself killed
      // mid-launch of it. Either way one recorder (the folders below).
      expect(jobs.crashed.status).toBe('launched');
      expect(jobs.crashed.attempts).toBeGreaterThanOrEqual(2);
      for (const job of burst) expect(jobs[job.id]).toMatchObject({ status: 'launched', late: 0 });

      // Ground truth: the recorders the local driver started, one folder each, named by job.
      const folders = fs
        .readdirSync(path.join(dataDir, 'instances'))
        .filter((f) => fs.existsSync(path.join(dataDir, 'instances', f, 'config.json')));
      const jobIds = folders.map(
        (folder) =>
          JSON.parse(fs.readFileSync(path.join(dataDir, 'instances', folder, 'config.json'), 'utf8')).jobId as string,
      );
      const launched = Object.values(jobs)
        .filter((j) => j.status === 'launched')
        .map((j) => j.id);
      expect(jobIds.sort()).toEqual(launched.sort());
      for (const job of Object.values(jobs).filter((j) => j.status === 'launched')) {
        expect(folders).toContain(job.instance_id);
      }
      await db.close();

      process.kill(-(server.pid ?? 0), 'SIGTERM');
      await new Promise((resolve) => server?.once('exit', resolve));
    },
    scaled(180_000),
  );
});
