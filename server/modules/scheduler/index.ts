import type { ServerMessage } from '../../../contract/live';
import type { CaptureProvider } from '../../capture/provider';
import type { Config } from '../../config';
import type { Db } from '../../db';
import type { Clock } from '../../lib/clock';
import type { EventBus } from '../../lib/events';
import type { ServerModule } from '../../lib/server-module';
import type { LiveHub } from '../live';
import type { ActivityService } from '../activity';
import type { AlarmsService } from '../alarms';
import type { RecordingConfigService } from '../recording-configs';
import type { InstancesService } from '../instances';
import type { MonitoringService } from '../monitoring';
import type { MosquesService } from '../mosques';
import type { PrayerTimesService } from '../prayer-times';
import type { RecordingsService } from '../recordings';
import { CaptureLauncher, CapturePreflightChecks, PrayerTimesPlanner } from './adapters';
import type { FridayPlanner, PreflightChecks, RecordingLauncher, SchedulerTimer } from './ports';
import { SchedulerRepository } from './repository';
import type { RunnerLog } from './runner';
import { SchedulerService } from './service';
import { registerSchedulerRoutes } from './routes';

export { SchedulerService } from './service';
export { isDeadHereClaimant, newClaimantId } from './claimant';

/** What a caller (tests, the benchmark) may swap in; everything else comes from the services below. */
export interface SchedulerOptions {
  planner?: FridayPlanner;
  launcher?: RecordingLauncher;
  /** Default: the clock's own timer. */
  timer?: SchedulerTimer;
  preflight?: PreflightChecks;
  /** Resolves a stream page to its media (pre-flight); default: the recorder's resolver (yt-dlp for a page). */
  resolveStream?: (url: string) => Promise<void>;
}

/** Everything the scheduler uses, all built before it. */
export interface SchedulerWiring {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'ytDlpPath' | 'dataDir'>;
  hub: Pick<LiveHub, 'publish'>;
  log: RunnerLog;
  events: EventBus;
  /** This server's claimant id, made before the modules (the servers table names this server by it). */
  serverId: string;
  /** Whether a claimant is a server known dead (the servers table). */
  claimantIsDead: (claimant: string) => Promise<boolean>;
  mosques: MosquesService;
  prayerTimes: PrayerTimesService;
  recordingConfigs: RecordingConfigService;
  /** The fleet-wrapped CaptureProvider (never a bare driver). */
  capture: CaptureProvider;
  instances: InstancesService;
  recordings: RecordingsService;
  alarms: AlarmsService;
  activity: ActivityService;
  monitoring: MonitoringService;
  /** Ports to swap (tests, bench): planner, launcher, timer, pre-flight. */
  scheduler?: SchedulerOptions;
}

/** The durable Friday scheduler, its routes; booted when the app is ready, closed before it closes. */
export function createSchedulerModule(wiring: SchedulerWiring): ServerModule<SchedulerService> {
  const { alarms, activity, monitoring, events } = wiring;
  const options = wiring.scheduler ?? {};
  const publish = (message: ServerMessage) => wiring.hub.publish(message);
  const service = new SchedulerService({
    repository: new SchedulerRepository(wiring.db.kysely),
    planner: options.planner ?? new PrayerTimesPlanner(wiring),
    launcher: options.launcher ?? new CaptureLauncher(wiring),
    preflight: options.preflight ?? new CapturePreflightChecks(wiring, options.resolveStream),
    leadSeconds: wiring.capture.leadSeconds,
    alarms,
    linkedAlarms: (links) => alarms.linkedTo(links),
    recordingsByIds: (ids) => wiring.recordings.byIds(ids),
    clock: wiring.clock,
    timer: options.timer ?? wiring.clock.timer(),
    publish,
    log: wiring.log,
    recordActivity: (input) => activity.record(input),
    watchMosques: (listener) => events.on('mosque_changed', (change) => listener(change.mosque_id)),
    provideJobCounts: (counts) => monitoring.provideSchedulerJobCounts(counts),
    claimant: wiring.serverId,
    claimantIsDead: wiring.claimantIsDead,
  });
  // A recording's outcome that changes after its job was settled (a late result, the store's join) revises the job.
  events.on(
    'recording_revised',
    ({ instanceId }) =>
      void service
        .reviseOutcome(instanceId)
        .catch((error: unknown) => wiring.log.error({ err: error, instanceId }, 'revising a job outcome failed')),
  );
  // Taken over, this server's launch claims were handed to others: it claims nothing more, at once.
  events.on('lease_lost', () => void service.runner.close());
  return {
    service,
    register: (app) => registerSchedulerRoutes(app, service),
    start: () => service.boot(),
    close: () => service.close(),
  };
}
