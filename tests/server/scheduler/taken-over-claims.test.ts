import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LaunchRequest } from '../../../server/modules/scheduler/ports';
import { MemoryLauncher } from '../../../testkit/scheduler-doubles';
import { SchedulerEnv, type SchedulerApp } from './helpers';

const NYC = 'friday-nyc0000001-2026-11-06';
/** New York's window on Friday 6 November 2026: 17:10 to 19:10 UTC. */
const STARTS = '2026-11-06T17:10:00.000Z';
const ENDED = '2026-11-06T19:10:00.000Z';

/** A launcher whose launches wait for the test: a launch still in flight when its claim is taken over. */
class HeldLauncher extends MemoryLauncher {
  private release: (() => void) | undefined;
  held = false;

  hold(): void {
    this.held = true;
  }

  letGo(): void {
    this.held = false;
    this.release?.();
  }

  override async launch(request: LaunchRequest): Promise<{ instanceId: string; recordingId: string }> {
    if (this.held) await new Promise<void>((resolve) => (this.release = resolve));
    return super.launch(request);
  }
}

/**
 * The ledger follows the recorders: a job whose launch claim was taken over (its server counted dead
 * while it ran, the claim released) keeps the instance its launch made, and a Friday is "missed" only
 * when no recorder was launched for it.
 */
describe('jobs whose launch claim was taken over', () => {
  let env: SchedulerEnv;
  let s: SchedulerApp;
  let launcher: HeldLauncher;
  let token: string;

  beforeEach(async () => {
    env = await SchedulerEnv.create({ start: '2026-10-31T12:00:00Z' });
    launcher = new HeldLauncher();
    s = await env.build({ launcher });
    token = await s.login();
    await s.request({ method: 'POST', url: '/api/scheduler/schedule-friday', token, payload: {} });
  });
  afterEach(() => env.dispose());

  const ledgerRow = async () =>
    (await s.app.ctx.scheduler.fridays('2026-11-06')).fridays.find((row) => row.job_id === NYC);
  const openAlarms = async () => (await s.app.ctx.alarms.list('open', 50)).filter((alarm) => alarm.job_id === NYC);

  it('a launch that lands after its claim was released keeps its instance', async () => {
    launcher.hold();
    env.clock.set(STARTS);
    // Resolves once the claimed launch has started (it waits in the launcher).
    await s.app.ctx.scheduler.tick();
    // Another server took the claim over (the launching server was counted dead), then the window ended.
    const runner = s.app.ctx.scheduler.runner;
    const db = s.app.ctx.db.kysely;
    await db
      .updateTable('scheduler_jobs')
      .set({ status: 'scheduled', claimed_by: null, claimed_at: null, next_run_time: STARTS })
      .where('id', '=', NYC)
      .where('claimed_by', '=', runner.claimant)
      .execute();
    launcher.letGo();
    await runner.idle();

    const row = await db.selectFrom('scheduler_jobs').selectAll().where('id', '=', NYC).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'launched', instance_id: 'i-000001', recording_id: 'rec-i-000001' });
    expect(launcher.launches.map((launch) => launch.jobId)).toEqual([NYC]);
    expect(await openAlarms()).toEqual([]);
  });

  it('a Friday whose window ended while its claim was away is not missed when a recorder was launched', async () => {
    env.clock.set(STARTS);
    await s.runDue();
    const db = s.app.ctx.db.kysely;
    // The launching server died after its recorder started, before the job said so; the claim was released.
    await db
      .updateTable('scheduler_jobs')
      .set({ status: 'scheduled', instance_id: null, recording_id: null, next_run_time: STARTS })
      .where('id', '=', NYC)
      .execute();
    env.clock.set(ENDED);
    await s.runDue();

    const row = await db.selectFrom('scheduler_jobs').selectAll().where('id', '=', NYC).executeTakeFirstOrThrow();
    expect(row.instance_id).toBe('i-000001');
    expect(row.status).not.toBe('missed');
    expect((await ledgerRow())?.status).not.toBe('missed');
    expect((await openAlarms()).map((alarm) => alarm.kind)).not.toContain('missed');
  });

  it('a Friday with no recorder is still missed', async () => {
    launcher.failNext(1, 'EC2 capacity unavailable');
    env.clock.set(STARTS);
    await s.runDue();
    env.clock.set(ENDED);
    await s.runDue();
    const row = await s.app.ctx.db.kysely
      .selectFrom('scheduler_jobs')
      .selectAll()
      .where('id', '=', NYC)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'missed', instance_id: null });
    expect((await openAlarms()).map((alarm) => alarm.kind)).toContain('missed');
  });
});
