import type { ServerMessage } from '../../../contract/live';
import type { AppContext } from '../../context';
import type { Db } from '../../db';
import type { Clock } from '../../lib/clock';
import { CaptureLauncher, CapturePreflightChecks, PrayerTimesPlanner } from './adapters';
import { MemoryPreflightChecks, unavailableLauncher } from './in-memory';
import { silentAlarms, type FridayPlanner, type PreflightChecks, type RecordingLauncher, type SchedulerTimer } from './ports';
import { SchedulerRepository } from './repository';
import type { RunnerLog } from './runner';
import { SchedulerService } from './service';
import { ManualTimer, RealTimer } from './timers';

export { SchedulerService } from './service';
export { registerSchedulerRoutes } from './routes';

/** What a caller (tests, the benchmark) may swap in; everything else comes from the app. */
export interface SchedulerOptions {
  planner?: FridayPlanner;
  launcher?: RecordingLauncher;
  /** Default: a real timer on the system clock; a ManualTimer (driven by tick()) on any injected clock. */
  timer?: SchedulerTimer;
  preflight?: PreflightChecks;
  /** Resolves a stream page to its media (pre-flight); default: only direct media URLs pass. */
  resolveStream?: (url: string) => Promise<void>;
}

export interface SchedulerWiring {
  db: Db;
  clock: Clock;
  realClock: boolean;
  publish(message: ServerMessage): void;
  log: RunnerLog;
  /** The app's services, read when first needed (the context is completed after the scheduler is built). */
  services?: () => AppContext;
}

/** Stands in while no prayer-times service is wired. */
const unavailablePlanner: FridayPlanner = {
  planFriday: () => Promise.reject(new Error('Prayer times service is not available on this server')),
  prayerTimes: () => Promise.resolve([]),
  activeMosques: () => Promise.resolve([]),
};

export function createScheduler(wiring: SchedulerWiring, options: SchedulerOptions = {}): SchedulerService {
  const services = wiring.services;
  return new SchedulerService({
    repository: new SchedulerRepository(wiring.db.kysely),
    planner: options.planner ?? (services ? new PrayerTimesPlanner(services) : unavailablePlanner),
    launcher: options.launcher ?? (services ? new CaptureLauncher(services) : unavailableLauncher),
    preflight: options.preflight ?? (services ? new CapturePreflightChecks(services, options.resolveStream) : new MemoryPreflightChecks()),
    alarms: services ? { raise: (cause) => services().alarms.raise(cause), resolve: (...keys) => services().alarms.resolve(...keys), resolveAllExcept: (prefix, keys) => services().alarms.resolveAllExcept(prefix, keys) } : silentAlarms,
    linkedAlarms: services && ((links) => services().alarms.linkedTo(links)),
    clock: wiring.clock,
    timer: options.timer ?? (wiring.realClock ? new RealTimer() : new ManualTimer()),
    publish: wiring.publish,
    log: wiring.log,
    recordActivity: services && ((input) => services().activity.record(input)),
    watchMosques: services && ((listener) => services().mosques.onChange((change) => listener(change.mosque_id))),
    provideJobCounts: services && ((counts) => services().monitoring.provideSchedulerJobCounts(counts)),
  });
}
