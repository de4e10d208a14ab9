import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import type { PlannedMosque } from '../../../testkit/scheduler-doubles';
import { PLANNING_LEASE_MS } from '../../../server/modules/scheduler/planning-lease';
import { expectQuietFor, waitFor } from '../../../testkit/wait';
import { SchedulerEnv, type SchedulerApp } from './helpers';

const MOSQUES: PlannedMosque[] = [
  {
    id: 'lease00001',
    name: 'Lease Mosque',
    url: 'https://streams.test/lease.m3u8',
    timezone: 'Asia/Riyadh',
    fridayPrayer: '12:00',
  },
];

/** A process id that existed on this host and no longer does. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

/** Servers sharing a database take turns to plan; a lease left by a server that died does not stop planning. */
describe('the planning lease', () => {
  let env: SchedulerEnv;
  let s: SchedulerApp;
  afterEach(() => env.dispose());

  async function holdLease(holder: string, forMs: number) {
    const until = new Date(env.clock.now().getTime() + forMs).toISOString();
    await s.app.ctx.db.kysely
      .updateTable('scheduler_state')
      .set({ planning_by: holder, planning_until: until })
      .where('id', '=', 1)
      .execute();
  }
  const schedule = async () => {
    const response = await s.request({
      method: 'POST',
      url: '/api/scheduler/schedule-friday',
      token: await s.login(),
      payload: {},
    });
    return response.statusCode;
  };
  /** Notes when a request is answered, so that a test can check it is held without waiting on it. */
  const watch = (promise: Promise<unknown>) => {
    const request = { answered: false };
    const note = () => void (request.answered = true);
    void promise.then(note, note);
    return request;
  };

  it('waits while another server plans, and plans once that lease lapses', async () => {
    env = await SchedulerEnv.create({ start: '2026-11-02T09:00:00Z', mosques: MOSQUES });
    s = await env.build();
    await holdLease('another-host/4242/cafe0001', PLANNING_LEASE_MS);
    const planned = schedule();
    const request = watch(planned);
    await expectQuietFor(300, () => expect(request.answered).toBe(false));
    env.clock.advance(PLANNING_LEASE_MS + 1);
    expect(await planned).toBe(200);
    const state = await s.app.ctx.db.kysely
      .selectFrom('scheduler_state')
      .select(['planning_by', 'planning_until'])
      .executeTakeFirstOrThrow();
    expect(state).toEqual({ planning_by: null, planning_until: null });
  });

  it('takes over at once a lease whose holder was a process on this host that is gone', async () => {
    env = await SchedulerEnv.create({ start: '2026-11-02T09:00:00Z', mosques: MOSQUES });
    s = await env.build();
    await holdLease(`${os.hostname()}/${deadPid()}/dead0001`, 60 * 60_000);
    const planned = schedule();
    const request = watch(planned);
    await waitFor(() => request.answered, 'the lease to be taken over at once', 5000, 20);
    expect(await planned).toBe(200);
  });
});
