import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../server/db';
import { fridayJobRow } from '../../testkit/job-row';
import { freePort } from '../../testkit/ports';
import { signalGroup, spawnServerProcess, type ServerChild } from '../support/server-process';
import { alive, instancePids, killRecorders, startHlsSource, type HlsSource } from '../../testkit/capture';
import { FAULT_ADMIN, spawnServer, temporaryDir, type ServerProcess } from './support/server';
import { pause, StopWaiting, waitFor } from '../../testkit/wait';
import { scaled } from '../../testkit/time-scale';

const KILLS = 20;
/** One due job per start keeps 20 recorders (not 40) running on a 2-core machine by the end. */
const JOBS_PER_KILL = 1;
/** Kills land this long after the due jobs were claimed, spread evenly: every moment of a launch is hit. */
const KILL_WINDOW_MS = 700;
/** Long enough that every window is still open when the last server checks (a loaded machine takes 10 minutes). */
const WINDOW_MS = 30 * 60_000;

/** Due now, its window open long enough for every server to see it. */
const dueJob = (id: string, url: string, now: number) =>
  fridayJobRow(id, now, { url, recording_end: new Date(now + WINDOW_MS).toISOString(), duration: WINDOW_MS / 1000 });

/** What a recorder folder holds, for a failure message: its job, its recorder and what it recorded. */
function describeFolder(
  dataDir: string,
  name: string,
  job:
    { id: string; status: string; attempts: number; instance_id: string | null; last_error: string | null } | undefined,
): string {
  const dir = `${dataDir}/instances/${name}`;
  const read = (file: string) =>
    fs.existsSync(`${dir}/${file}`) ? fs.readFileSync(`${dir}/${file}`, 'utf8') : '(none)';
  const { recorder } = instancePids(dataDir, name);
  return [
    `${name}: job ${JSON.stringify(job)}; recorder ${recorder} ${alive(recorder) ? 'alive' : 'gone'}`,
    `  state.json: ${read('state.json').slice(0, 1500)}`,
    `  log: ${read('recorder.log').slice(-1500)}`,
  ].join('\n');
}

/**
 * A server SIGKILLed at any moment of a launch loses nothing: 20 times, due jobs are seeded and a
 * server started; it is killed 0–700 ms after it claimed them (before, during or after the recorder
 * start, the instance row, the recording row). The server that comes after must leave every job
 * recording (its instance, its recording row and a live recorder process behind it), relaunched, or
 * alarmed; no job may read launched without a recorder, and none may get two.
 */
describe('SIGKILL during launches', () => {
  const dataDir = temporaryDir('launch');
  let source: HlsSource | undefined;
  let db: Db | undefined;
  let child: ServerChild | undefined;
  let server: ServerProcess | undefined;

  afterAll(async () => {
    if (child) signalGroup(child.child, 'SIGKILL');
    await server?.kill('SIGKILL');
    killRecorders(dataDir);
    await db?.close();
    await source?.close();
  });

  it(
    'leaves every due job recording, relaunched or alarmed after 20 kills in the first 700 ms',
    async () => {
      source = await startHlsSource();
      // The first start creates the database (and the admin); the kills start from there.
      server = await spawnServer({ dataDir, env: { CAPTURE_PROVIDER: 'local' } });
      await server.stop();
      server = undefined;
      db = await openDatabase({ dataDir, databaseUrl: undefined });
      const jobsDb = db;
      const ids: string[] = [];
      const killedAfter: number[] = [];

      for (let round = 0; round < KILLS; round++) {
        const now = Date.now();
        const batch = Array.from({ length: JOBS_PER_KILL }, (_, i) =>
          dueJob(`kill${String(round).padStart(2, '0')}-${i}`, source?.url ?? '', now),
        );
        await jobsDb.kysely.insertInto('scheduler_jobs').values(batch).execute();
        ids.push(...batch.map((job) => job.id));

        const port = await freePort();
        child = spawnServerProcess(port, dataDir, {
          DATABASE_URL: '',
          ADMIN_PASSWORD: FAULT_ADMIN.password,
          DEMO_STREAM: '0',
          CAPTURE_PROVIDER: 'local',
        });
        const running = child;
        const claimedAt = await waitFor(
          async () => {
            if (!running.running()) throw new StopWaiting(`the server exited:\n${running.output()}`);
            const rows = await jobsDb.kysely
              .selectFrom('scheduler_jobs')
              .select(['claimed_at', 'launched_at'])
              .where(
                'id',
                'in',
                batch.map((j) => j.id),
              )
              .execute();
            // A launch clears its claim when it completes: one quicker than this poll leaves only its
            // launch time, and the kill is then timed from there (later in the launch, never earlier).
            const stamps = rows
              .map((r) => Date.parse(r.claimed_at ?? r.launched_at ?? ''))
              .filter((t) => !Number.isNaN(t));
            return stamps.length > 0 ? Math.min(...stamps) : undefined;
          },
          `round ${round}: the due jobs to be claimed`,
          180_000,
          10,
        ).catch(async (error: unknown) => {
          // What the server and the job were doing, so a hang says where it hung.
          const job = await jobsDb.kysely
            .selectFrom('scheduler_jobs')
            .selectAll()
            .where(
              'id',
              'in',
              batch.map((j) => j.id),
            )
            .execute();
          const state = await jobsDb.kysely.selectFrom('scheduler_state').selectAll().execute();
          throw new Error(
            `${String(error)}\njob: ${JSON.stringify(job)}\nscheduler: ${JSON.stringify(state)}\nserver:\n${running.output().slice(-6000)}`,
          );
        });
        const target = (KILL_WINDOW_MS * round) / (KILLS - 1);
        // Real time: the kill lands this far into the launch, a moment no condition marks.
        await pause(Math.max(0, claimedAt + target - Date.now()));
        killedAfter.push(Date.now() - claimedAt);
        signalGroup(running.child, 'SIGKILL');
        await running.exited;
        child = undefined;
      }
      expect(Math.min(...killedAfter)).toBeLessThan(150);

      server = await spawnServer({ dataDir, env: { CAPTURE_PROVIDER: 'local' } });
      const settleStart = Date.now();
      const token = await server.login();
      const report = async () =>
        JSON.stringify(
          await jobsDb.kysely
            .selectFrom('scheduler_jobs')
            .select(['id', 'status', 'attempts', 'instance_id', 'last_error'])
            .where('id', 'in', ids)
            .execute(),
        );
      const settled = await waitFor(
        async () => {
          if (!server?.running()) throw new StopWaiting(`the last server exited:\n${server?.output() ?? ''}`);
          if (Date.now() - settleStart > 290_000)
            throw new Error(`jobs did not settle: ${await report()}\n${server.output().slice(-4000)}`);
          const rows = await jobsDb.kysely.selectFrom('scheduler_jobs').selectAll().where('id', 'in', ids).execute();
          return rows.every((job) => ['launched', 'failed', 'missed'].includes(job.status)) ? rows : undefined;
        },
        'every job to be launched or alarmed',
        // A launch whose recorder died before it was complete is retried (5 s to 135 s apart), then alarmed.
        300_000,
      );
      const alarms = (
        await server.request<{ data: { alarms: { job_id: string | null; kind: string }[] } }>(
          'GET',
          '/api/alarms?status=open',
          { token },
        )
      ).body.data.alarms;

      const recorderJobs: string[] = [];
      for (const job of settled) {
        if (job.status !== 'launched') {
          expect(
            alarms.some((alarm) => alarm.job_id === job.id),
            `${job.id} (${job.status}: ${job.last_error}) has an alarm`,
          ).toBe(true);
          continue;
        }
        const instance = await jobsDb.kysely
          .selectFrom('instances')
          .selectAll()
          .where('id', '=', job.instance_id ?? '')
          .executeTakeFirst();
        expect(instance, `${job.id}: instance row ${job.instance_id}`).toMatchObject({
          job_id: job.id,
          provider_instance_id: job.instance_id,
        });
        const recording = await jobsDb.kysely
          .selectFrom('recordings')
          .selectAll()
          .where('instance_id', '=', job.instance_id ?? '')
          .executeTakeFirst();
        expect(recording, `${job.id}: recording row`).toMatchObject({ id: job.recording_id, status: 'recording' });
        const { recorder } = instancePids(dataDir, job.instance_id ?? '');
        expect(alive(recorder), `${job.id}: recorder process ${recorder} of ${job.instance_id}`).toBe(true);
        recorderJobs.push(job.id);
      }
      // Ground truth: one recorder folder per launched job, none twice, none for a job not launched.
      const folders = fs
        .readdirSync(`${dataDir}/instances`)
        .filter((name) => fs.existsSync(`${dataDir}/instances/${name}/config.json`));
      const folderJobs = folders.map(
        (name) =>
          (JSON.parse(fs.readFileSync(`${dataDir}/instances/${name}/config.json`, 'utf8')) as { jobId: string }).jobId,
      );
      const strays = folders.flatMap((name, i) =>
        recorderJobs.includes(folderJobs[i])
          ? []
          : [
              describeFolder(
                dataDir,
                name,
                settled.find((job) => job.id === folderJobs[i]),
              ),
            ],
      );
      expect(folderJobs.sort(), `folders of jobs not launched:\n${strays.join('\n')}`).toEqual(recorderJobs.sort());
      expect(
        settled.filter((job) => job.attempts > 1).length,
        'some launches were cut short and run again',
      ).toBeGreaterThan(0);
    },
    scaled(900_000),
  );
});
