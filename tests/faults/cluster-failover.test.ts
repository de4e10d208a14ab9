import os from 'node:os';
import type pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { alive, instancePids, killRecorders, startHlsSource, waitFor, type HlsSource } from '../../testkit/capture';
import { fridayJobRow } from '../../testkit/job-row';
import { startServerCluster, type ServerCluster } from '../../testkit/server-cluster';
import { scaled } from '../../testkit/time-scale';

const RECORDINGS = 8;
const DURATION = 60;
/** docs/architecture.md, "Performance budgets": a dead server's recordings are taken over within 30 s. */
const TAKEN_OVER_WITHIN_MS = 30_000;
/** A Friday job the killed server had claimed and not launched yet. */
const CLAIMED_JOB = 'friday-claimed-by-killed-server';
/**
 * Its window opens this long after the claim: a recorder records until its window's end, and the
 * claim is let go at the next scheduler pass of another server (every 15 s), so the job is launched
 * again before its window opens and the window is recorded whole.
 */
const CLAIMED_JOB_OPENS_AFTER_MS = 35_000;

interface Details {
  id: string;
  state: string;
  recording: {
    id: string;
    status: string;
    reason: string | null;
    gaps: unknown[];
    duration_seconds: number | null;
  } | null;
}

/**
 * Three real servers on one PostgreSQL behind the round-robin proxy, each with its own data folder on
 * this machine. The first runs 8 recordings and is SIGKILLed: its recorders (processes of their own)
 * record on, a live server on the same host adopts its folder within 30 s (the servers table says it
 * is dead after 20 s), follows them through the proxy, and every recording ends captured over its
 * whole window, once, with no gap; the restarted server takes its recorders back. A Friday job the
 * killed server had claimed (its launch not yet done) is launched by another server, once, and its
 * recording ends captured too.
 */
describe('SIGKILL of one of three servers with 8 local recordings running', () => {
  let cluster: ServerCluster | undefined;
  let source: HlsSource | undefined;

  afterAll(async () => {
    await cluster?.close();
    for (const server of cluster?.servers ?? []) killRecorders(server.dataDir);
    await source?.close();
  });

  const query = <T extends pg.QueryResultRow>(text: string, values?: unknown[]) => cluster!.query<T>(text, values);
  const adopter = async (scope: string) =>
    (
      await query<{ server_id: string }>('select server_id from scope_adoptions where scope = $1 and until > $2', [
        scope,
        new Date().toISOString(),
      ])
    )[0]?.server_id;

  /** A Friday job due now, claimed by the server `claimant` (its scheduler id) as a launch in progress leaves it. */
  async function seedClaimedJob(claimant: string, url: string): Promise<void> {
    const now = Date.now();
    const opens = now + CLAIMED_JOB_OPENS_AFTER_MS;
    const row = fridayJobRow(CLAIMED_JOB, opens, {
      url,
      duration: DURATION,
      recording_end: new Date(opens + DURATION * 1000).toISOString(),
      status: 'launching',
      attempts: 1,
      claimed_by: claimant,
      claimed_at: new Date(now).toISOString(),
    });
    const columns = Object.keys(row);
    await query(
      `insert into scheduler_jobs (${columns.join(', ')}) values (${columns.map((_, i) => `$${i + 1}`).join(', ')})`,
      Object.values(row),
    );
  }

  it(
    'is taken over within 30 s by a server on the same host, and every recording ends captured',
    async () => {
      source = await startHlsSource();
      cluster = await startServerCluster({ servers: 3 });
      const { servers } = cluster;
      const [first, second] = servers;
      const token = await cluster.login();
      // 320x240 is the source's own frame size: each recorder copies it (a fraction of a core).
      const configs = Array.from({ length: RECORDINGS }, () => ({
        url: source?.url,
        duration: DURATION,
        width: 320,
        height: 240,
      }));
      const launched = await first.request<{ data: { instances: { id: string }[] } }>('POST', '/api/instances/launch', {
        token,
        body: { configs, max_workers: 4 },
      });
      expect(launched.status, launched.text).toBe(200);
      const ids = launched.body.data.instances.map((instance) => instance.id);
      expect(ids).toHaveLength(RECORDINGS);
      const details = (id: string) =>
        cluster?.request<{ data: Details }>('GET', `/api/instances/${id}`, { token }) as Promise<{
          body: { data: Details };
        }>;
      await waitFor(
        async () =>
          (await Promise.all(ids.map(async (id) => (await details(id)).body.data.state))).every(
            (state) => state === 'running',
          ),
        'every recording to run',
        60_000,
        500,
      );

      const pids = ids.map((id) => instancePids(first.dataDir, id));
      // Its scheduler id is its id in the servers table: the claim names the server about to die.
      const [{ id: firstId }] = await query<{ id: string }>(
        'select id from servers where internal_address = $1 order by started_at desc limit 1',
        [first.baseUrl],
      );
      await seedClaimedJob(firstId, source.url);
      await first.kill('SIGKILL');
      const killedAt = Date.now();
      expect(
        pids.every(({ recorder }) => alive(recorder)),
        'the recorders outlive their server',
      ).toBe(true);

      const scope = `local:${os.hostname()}:${first.dataDir}`;
      const taker = await waitFor(
        () => adopter(scope),
        "a live server to adopt the dead server's recorders",
        TAKEN_OVER_WITHIN_MS + 5000,
        250,
      );
      const takenOverMs = Date.now() - killedAt;
      process.stdout.write(`taken over after ${(takenOverMs / 1000).toFixed(1)} s by ${taker}\n`);
      expect(takenOverMs).toBeLessThanOrEqual(TAKEN_OVER_WITHIN_MS);
      const logs = await second.request<{ data: { logs: string[] } }>('GET', `/api/instances/${ids[0]}/logs?lines=20`, {
        token,
      });
      expect(logs.status, logs.text).toBe(200);

      // The job it had claimed: its claim is let go (its process is gone) and another server launches it.
      const job = await waitFor(
        async () => {
          const [row] = await query<{ status: string; instance_id: string | null; attempts: number }>(
            'select status, instance_id, attempts from scheduler_jobs where id = $1',
            [CLAIMED_JOB],
          );
          return row?.status === 'launched' ? row : undefined;
        },
        'the claimed job to be launched by another server',
        TAKEN_OVER_WITHIN_MS,
        250,
      );
      expect(job.attempts, 'the interrupted attempt and the one that launched').toBe(2);
      const [jobInstance] = await query<{ id: string; scope: string }>(
        'select id, scope from instances where job_id = $1',
        [CLAIMED_JOB],
      );
      expect(jobInstance.id).toBe(job.instance_id);
      expect(jobInstance.scope, 'launched by a live server, on its own disk').not.toBe(scope);
      ids.push(jobInstance.id);
      process.stdout.write(`claimed job launched again after ${((Date.now() - killedAt) / 1000).toFixed(1)} s\n`);

      const ended = await waitFor(
        async () => {
          const all = await Promise.all(ids.map(async (id) => (await details(id)).body.data));
          return all.every((row) => row.recording && row.recording.status !== 'recording') ? all : undefined;
        },
        async () =>
          `every recording to end: ${JSON.stringify(await Promise.all(ids.map(async (id) => ({ id, recording: (await details(id)).body.data.recording }))))}`,
        CLAIMED_JOB_OPENS_AFTER_MS + DURATION * 1000 + 90_000,
        1000,
      );
      for (const row of ended) {
        expect(row.state, row.id).toBe('stopped');
        expect(row.recording, row.id).toMatchObject({ status: 'captured', reason: null, gaps: [] });
        expect(row.recording?.duration_seconds, row.id).toBeGreaterThanOrEqual(DURATION - 2);
      }
      // Adopted, not launched again: one recorder each, never a second beside it.
      expect((await cluster.request<{ data: unknown[] }>('GET', '/api/instances/', { token })).body.data).toHaveLength(
        RECORDINGS + 1,
      );
      // The claimed job was launched once: one instance, and its job points at it; the Friday ledger
      // settles what the library says (at a scheduler pass after the window's end, every 15 s).
      expect(await query('select id from instances where job_id = $1', [CLAIMED_JOB])).toHaveLength(1);
      const settled = await waitFor(
        async () =>
          (
            await query<{ status: string; outcome_reason: string | null }>(
              "select status, outcome_reason from scheduler_jobs where id = $1 and status <> 'launched'",
              [CLAIMED_JOB],
            )
          )[0],
        'the claimed job to be settled',
        30_000,
        500,
      );
      expect(settled).toEqual({ status: 'captured', outcome_reason: null });

      // Back again, the server of that folder takes it back from the adopter.
      await first.start();
      await waitFor(async () => !(await adopter(scope)), 'the adoption to be handed back', 30_000, 500);
    },
    scaled(300_000),
  );
});
