import type { ServerMessage } from '../../../contract/live';
import type { CaptureProvider } from '../../capture/provider';
import type { Config } from '../../config';
import type { Db } from '../../db';
import type { Clock } from '../../lib/clock';
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

export { SchedulerService } from './service';
export { registerSchedulerRoutes } from './routes';
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
  publish(message: ServerMessage): void;
  log: RunnerLog;
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
}

export function createScheduler(wiring: SchedulerWiring, options: SchedulerOptions = {}): SchedulerService {
  const { alarms, activity, mosques, monitoring } = wiring;
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
    publish: wiring.publish,
    log: wiring.log,
    recordActivity: (input) => activity.record(input),
    watchMosques: (listener) => mosques.onChange((change) => listener(change.mosque_id)),
    provideJobCounts: (counts) => monitoring.provideSchedulerJobCounts(counts),
  });
  // A recording's outcome that changes after its job was settled (a late result, the store's join) revises the job.
  wiring.recordings.onRevised(
    (instanceId) =>
      void service
        .reviseOutcome(instanceId)
        .catch((error: unknown) => wiring.log.error({ err: error, instanceId }, 'revising a job outcome failed')),
  );
  return service;
}
