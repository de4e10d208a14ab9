import { buildApp, type App } from '../../server/app';
import type { Config } from '../../server/config';
import type { HostResolver } from '../../server/lib/internal-addresses';
import type { ManualClock } from '../../testkit/manual-clock';
import { ManualTimer } from '../../testkit/scheduler-doubles';
import { RECURRING_JOB_ID } from '../../server/modules/scheduler/policy';
import type { SimulatedCaptureProvider } from './provider';

const DAY_MS = 86_400_000;

/** Where the season's mosques stream from: a name of the simulated world, not of this machine's network. */
export const STREAM_HOST = 'streams.season.test';

/**
 * The season's DNS: its stream host has a public address (one of example.com's; documentation ranges
 * such as TEST-NET-3 are refused as internal), so the launch guard against private hosts runs as it
 * would on a real one. Nothing connects to it: the season's recorders are simulated. Asking this machine's resolver
 * instead cost a real network round trip per launch (most of the season's wall time) for a name that
 * exists nowhere.
 */
const seasonResolver: HostResolver = async (host) => {
  if (host === STREAM_HOST) return ['93.184.216.34'];
  throw new Error(`${host} is not a host of the simulated season`);
};

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
    const app = await buildApp(config, {
      logger: false,
      clock,
      healthCheckIntervalMs: 0,
      captureDriver: fleet,
      resolveStreamHost: seasonResolver,
      scheduler: { timer: new ManualTimer() },
    });
    await app.ready();
    return new SeasonServer(app, clock);
  }

  /**
   * What a server does at this instant: read the fleet (when a recorder may have ended: the fleet
   * learns nothing new otherwise), then run every due job and settle every ended one. Returns when
   * the next job is due.
   */
  async step(readFleet: boolean): Promise<number> {
    const { instances, scheduler } = this.app.ctx;
    if (readFleet) await instances.reconcile();
    let next = Infinity;
    for (let pass = 0; pass < 100; pass++) {
      await scheduler.tick();
      await scheduler.runner.idle();
      next = await this.nextDue();
      if (next > this.clock.now().getTime()) break;
    }
    return next;
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
