import { buildApp, type App } from '../../server/app';
import type { Config } from '../../server/config';
import type { ManualClock } from '../../server/lib/clock';
import { POLL_INTERVAL_MS, RECURRING_JOB_ID } from '../../server/modules/scheduler/policy';
import type { SchedulerTimer } from '../../server/modules/scheduler/ports';
import type { SimulatedCaptureProvider } from './provider';

/**
 * The scheduler's timer on the accelerated clock: remembers when it was asked to wake. Wake-ups of
 * the 15 s poll (which only looks for other servers' changes) are left to the season's own steps.
 */
class SeasonTimer implements SchedulerTimer {
  dueAt: number | undefined;

  constructor(private readonly clock: ManualClock) {}

  arm(delayMs: number): void {
    this.dueAt = delayMs < POLL_INTERVAL_MS ? this.clock.now().getTime() + delayMs : undefined;
  }

  disarm(): void {
    this.dueAt = undefined;
  }
}

const DAY_MS = 86_400_000;

/**
 * One run of the real server (buildApp) on the season's database, clock and fleet. A restart is
 * `close()` then `SeasonServer.start()` again: the fleet (the recorders) lives on in between.
 */
export class SeasonServer {
  private constructor(
    readonly app: App,
    private readonly timer: SeasonTimer,
    private readonly clock: ManualClock,
  ) {}

  static async start(config: Config, clock: ManualClock, fleet: SimulatedCaptureProvider): Promise<SeasonServer> {
    const timer = new SeasonTimer(clock);
    const app = await buildApp(config, { logger: false, clock, healthCheckIntervalMs: 0, captureDriver: fleet, scheduler: { timer } });
    await app.ready();
    return new SeasonServer(app, timer, clock);
  }

  /** What a server does at this instant: read the fleet, then run every due job (and their retries). */
  async step(): Promise<void> {
    const { instances, scheduler } = this.app.ctx;
    await instances.reconcile();
    for (let pass = 0; pass < 100; pass++) {
      await scheduler.tick();
      await scheduler.runner.idle();
      const next = await this.nextDue();
      if (next > this.clock.now().getTime()) break;
    }
  }

  /**
   * When the server next has work of its own: a job due (or retried), or a short wake-up it asked
   * for. The daily planning run is only waited for on Thursday to Saturday (UTC), the days a Friday
   * window can open in somewhere; on the other days it would find nothing new, and its skipped runs
   * coalesce into Thursday's as they would after a server outage.
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
    let next = this.timer.dueAt ?? Infinity;
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
