import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jobsResponseSchema, type Job } from '../../../contract/scheduler';
import { messagesOf, scheduledFriday, type SchedulerEnv, type SchedulerApp } from './helpers';

const byId = async (s: SchedulerApp, token: string): Promise<Record<string, Job>> => {
  const response = await s.request({ method: 'GET', url: '/api/scheduler/jobs?scope=all', token });
  return Object.fromEntries(jobsResponseSchema.parse(response.json()).data.jobs.map((j) => [j.id, j]));
};

describe('misfires after downtime', () => {
  let env: SchedulerEnv;
  let s: SchedulerApp;

  beforeEach(async () => {
    ({ env, s } = await scheduledFriday());
  });
  afterEach(() => env.dispose());

  it('launches late a job whose window is still open and marks missed the ones whose window ended', async () => {
    await env.stop(s); // the server goes down on Saturday...
    env.clock.set('2026-11-06T08:30:00Z'); // ...and comes back on Friday morning (UTC)
    s = await env.build();
    await s.runDue();
    const token = await s.login();
    const jobs = await byId(s, token);

    // Karachi: recording 08:10Z-10:10Z, still open: launched at once, flagged late, ending on time.
    expect(jobs['friday-khi0000001-2026-11-06']).toMatchObject({ status: 'launched', late: true, attempts: 1 });
    expect(s.launcher.launches).toHaveLength(1);
    expect(s.launcher.launches[0]).toMatchObject({ jobId: 'friday-khi0000001-2026-11-06', duration: 6000 });
    // Auckland (23:40Z-01:40Z) and Sydney (01:25Z-03:25Z) ended while the server was down.
    for (const id of ['friday-akl0000001-2026-11-06', 'friday-syd0000001-2026-11-06']) {
      expect(jobs[id]).toMatchObject({
        status: 'missed',
        attempts: 0,
        next_run_time: null,
        last_error: 'Recording window ended before the scheduler could launch it',
      });
    }
    expect(
      messagesOf(s.published, 'launch_error')
        .map((m) => m.type === 'launch_error' && m.data.job_id)
        .sort(),
    ).toEqual(['friday-akl0000001-2026-11-06', 'friday-syd0000001-2026-11-06']);
    // Later ones wait for their time.
    expect(jobs['friday-nyc0000001-2026-11-06'].status).toBe('scheduled');
    // The recurring run missed at 00:00 UTC on the days of downtime ran once, on start.
    expect(jobs['schedule-friday-recordings']).toMatchObject({
      attempts: 1,
      next_run_time: '2026-11-07T00:00:00.000Z',
    });
  });

  it('applies the same policy to jobs that fell due while the scheduler was stopped', async () => {
    let token = await s.login();
    await s.request({ method: 'POST', url: '/api/scheduler/stop', token });
    env.clock.set('2026-11-06T02:00:00Z');
    token = await s.login();
    await s.request({ method: 'POST', url: '/api/scheduler/start', token });
    await s.app.ctx.scheduler.runner.idle();
    const jobs = await byId(s, token);
    expect(jobs['friday-akl0000001-2026-11-06'].status).toBe('missed');
    expect(jobs['friday-syd0000001-2026-11-06']).toMatchObject({ status: 'launched', late: true });
  });

  it('takes over a launch left half-done by a process on another host only once its claim is stale', async () => {
    const id = 'friday-khi0000001-2026-11-06';
    env.clock.set('2026-11-06T08:10:00Z');
    await s.app.ctx.db.kysely
      .updateTable('scheduler_jobs')
      .set({
        status: 'launching',
        claimed_by: 'other-host/4242/deadbeef',
        claimed_at: '2026-11-06T08:10:00.000Z',
        attempts: 1,
      })
      .where('id', '=', id)
      .execute();
    env.clock.set('2026-11-06T08:11:30Z');
    await s.runDue();
    expect(s.launcher.calls).toBe(0);

    env.clock.set('2026-11-06T08:12:01Z');
    await s.runDue(); // releases the claim
    await s.runDue(); // launches it again, under the same idempotency key
    expect(s.launcher.launches.map((l) => l.idempotencyKey)).toEqual([id]);
    const jobs = await byId(s, await s.login());
    expect(jobs[id]).toMatchObject({ status: 'launched', attempts: 2, late: false });
  });

  it('takes over at once a launch claimed by a server on another host that the servers table says is dead', async () => {
    const id = 'friday-khi0000001-2026-11-06';
    const claimant = 'other-host/4242/feedf00d';
    env.clock.set('2026-11-06T08:10:00Z');
    // Last heard from 21 s ago: dead (20 s), long before its claim would be stale (2 min).
    await s.app.ctx.db.kysely
      .insertInto('servers')
      .values({
        id: claimant,
        host: 'other-host',
        internal_address: 'http://10.0.0.9:8000',
        version: '1.0.0',
        scope: 'local:other-host:/data',
        started_at: '2026-11-06T08:00:00.000Z',
        last_seen: '2026-11-06T08:09:39.000Z',
      })
      .execute();
    await s.app.ctx.db.kysely
      .updateTable('scheduler_jobs')
      .set({ status: 'launching', claimed_by: claimant, claimed_at: '2026-11-06T08:09:50.000Z', attempts: 1 })
      .where('id', '=', id)
      .execute();
    await s.runDue();
    await s.runDue();
    expect(s.launcher.launches.map((l) => l.jobId)).toEqual([id]);
  });

  it('takes over at once a launch claimed by a dead process on this host', async () => {
    const deadPid = spawnSync(process.execPath, ['-e', '0']).pid;
    const id = 'friday-khi0000001-2026-11-06';
    env.clock.set('2026-11-06T08:10:00Z');
    await s.app.ctx.db.kysely
      .updateTable('scheduler_jobs')
      .set({
        status: 'launching',
        claimed_by: `${os.hostname()}/${deadPid}/cafe0001`,
        claimed_at: '2026-11-06T08:10:00.000Z',
        attempts: 1,
      })
      .where('id', '=', id)
      .execute();
    await s.runDue();
    await s.runDue();
    expect(s.launcher.launches.map((l) => l.jobId)).toEqual([id]);
  });
});
