import { buildApp, type App } from '../../server/app';
import type { Config } from '../../server/config';
import type { ManualClock } from '../../testkit/manual-clock';
import { ManualTimer } from '../../testkit/scheduler-doubles';
import { RECURRING_JOB_ID } from '../../server/modules/scheduler/policy';
import type { SimulatedCaptureProvider } from './provider';

const DAY_MS = 86_400_000;

/**
 * One run of the real server (buildApp) on the season's database, clock and fleet. A restart is
 * `close()` then `SeasonServer.start()` again: the fleet (the recorders) lives on in between.
 * The scheduler's timer is one only the season fires: the season wakes the server at the due times
 * the jobs table holds, which is all the timer would wake it for, minus the idle polls.
 */
export class SeasonServer {
  private constructor(
    readonly app: App,
    private readonly clock: ManualClock,
  ) {}

  static async start(config: Config, clock: ManualClock, fleet: SimulatedCaptureProvider): Promise<SeasonServer> {
    const app = await buildApp(config, { logger: false, clock, healthCheckIntervalMs: 0, captureDriver: fleet, scheduler: { timer: new ManualTimer() } });
    await app.ready();
    return new SeasonServer(app, clock);
  }

  /**
   * What a server does at this instant: read the fleet (when a recorder may have ended: the fleet
   * learns nothing new otherwise), then run every due job and settle every ended one.
   */
  async step(readFleet: boolean): Promise<void> {
    const { instances, scheduler } = this.app.ctx;
    if (readFleet) await instances.reconcile();
    for (let pass = 0; pass < 100; pass++) {
      await scheduler.tick();
      await scheduler.runner.idle();
      if ((await this.nextDue()) > this.clock.now().getTime()) break;
    }
  }

  /**
   * When the next job is due (a launch or its retry). The daily planning run is only waited for on
   * Thursday to Saturday (UTC), the days a Friday window can open in somewhere; on the other days it
   * would find nothing new, and its skipped runs coalesce into Thursday's as after a server outage.
   */
  async nextDue(): Promise<number> {
    const rows = await this.app.ctx.db.kysely
      .selectFrom('scheduler_jobs')
      .select(['id', 'next_run_time'])
      .where('status', '=', 'scheduled')
      .where('next_run_time', 'is not', null)
      .orderBy('next_run_time')
      .limit(2)
      .execute();
    let next = Infinity;
    for (const row of rows) {
      let at = Date.parse(row.next_run_time as string);
      if (row.id === RECURRING_JOB_ID) at = onThursdayToSaturday(at);
      next = Math.min(next, at);
    }
    return next;
  }

  close(): Promise<void> {
    return this.app.close();
  }
}

/** The instant itself on Thursday, Friday or Saturday (UTC); else the following Thursday 00:00 UTC. */
function onThursdayToSaturday(at: number): number {
  const day = new Date(at).getUTCDay();
  if (day === 4 || day === 5 || day === 6) return at;
  const midnight = Math.floor(at / DAY_MS) * DAY_MS;
  return midnight + ((4 - day + 7) % 7) * DAY_MS;
}
