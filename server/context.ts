import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { Db } from './db';
import type { Clock } from './lib/clock';
import type { EventBus } from './lib/events';
import type { SecretKeys } from './lib/secret-key';
import type { ServerModule } from './lib/server-module';
import type { AuthService, SessionService } from './modules/auth';
import type { LiveHub } from './modules/live';
import type { UsersService } from './modules/users';
import type { SchedulerService } from './modules/scheduler';
import type { ActivityService } from './modules/activity';
import type { GithubService } from './modules/github';
import type { MonitoringService } from './modules/monitoring';
import type { RecordingConfigService } from './modules/recording-configs';
import type { MosquesService } from './modules/mosques';
import type { PrayerTimesService } from './modules/prayer-times';
import type { CaptureProvider } from './capture/provider';
import type { InstancesModuleService, InstancesService } from './modules/instances';
import type { RecordingsService, RecordingsLibrary } from './modules/recordings';
import type { ImagesService } from './modules/images';
import type { AlarmsService } from './modules/alarms';
import type { ServerRegistry, ServersModuleService } from './modules/servers';

/** Everything a module may use, built once per app. Modules reach each other only through services here. */
export interface AppContext {
  config: Config;
  clock: Clock;
  db: Db;
  log: FastifyBaseLogger;
  keys: SecretKeys;
  /** What modules tell each other after they are built: `events.on('lease_lost', …)`, `mosque_changed`, `user_changed`. */
  events: EventBus;
  hub: LiveHub;
  sessions: SessionService;
  users: UsersService;
  auth: AuthService;
  /** The activity log: `activity.record({ actor, action, target, detail })`. */
  activity: ActivityService;
  /** Health and figures: registerHealthCheck, recordLaunchDuration, provide*Counts, registerGauge. */
  monitoring: MonitoringService;
  github: GithubService;
  /** The durable Friday scheduler (jobs in the database; launches through the capture fleet). */
  scheduler: SchedulerService;
  /** Mosques (CRUD, coordinates); every create, update and delete is a `mosque_changed` event. */
  mosques: MosquesService;
  /** Friday prayer times: `nextFridayPrayer(mosque, now)`, `fridayPrayerOn(mosque, 'YYYY-MM-DD')`, `upcoming()`. */
  prayerTimes: PrayerTimesService;
  /** Map-link extraction, reverse geocoding, generated recording configurations. */
  recordingConfigs: RecordingConfigService;
  /**
   * The capture fleet as a CaptureProvider: `capture.launch(config, { jobId, idempotencyKey })` records,
   * announces and launches a recorder on the configured driver (local or aws); `capture.health()`.
   */
  capture: CaptureProvider;
  /** Instances table, launch/terminate/reconcile, counts. */
  instances: InstancesService;
  /** Recordings (one per instance): list, counts, files. */
  recordings: RecordingsService;
  /** Recorder images (AMIs). */
  images: ImagesService;
  /** Alarms: `alarms.raise({ kind, key, message, mosqueId?, jobId?, instanceId? })`, `alarms.resolve(key)`. */
  alarms: AlarmsService;
  /** The recordings library: paging, media, delete, retention, storage. */
  recordingsLibrary: RecordingsLibrary;
  /** This server in the servers table (id, heartbeat) and the servers alive beside it. */
  servers: ServerRegistry;
}

/** The modules buildApp made, by the names it gave them. */
interface BuiltModules {
  activity: ServerModule<ActivityService>;
  users: ServerModule<UsersService>;
  auth: ServerModule<AuthService>;
  live: ServerModule<LiveHub>;
  monitoring: ServerModule<MonitoringService>;
  github: ServerModule<GithubService>;
  mosques: ServerModule<MosquesService>;
  prayerTimes: ServerModule<PrayerTimesService>;
  recordingConfigs: ServerModule<RecordingConfigService>;
  alarms: ServerModule<AlarmsService>;
  fleet: ServerModule<InstancesModuleService>;
  images: ServerModule<ImagesService>;
  servers: ServerModule<ServersModuleService>;
  library: ServerModule<RecordingsLibrary>;
  scheduler: ServerModule<SchedulerService>;
}

/** `app.ctx`: the services of the modules under the names routes and tests use. */
export function appContext(
  base: Pick<AppContext, 'config' | 'clock' | 'db' | 'log' | 'keys' | 'events'>,
  sessions: SessionService,
  built: BuiltModules,
): AppContext {
  const { capture, instances, recordings } = built.fleet.service;
  return {
    ...base,
    hub: built.live.service,
    sessions,
    users: built.users.service,
    auth: built.auth.service,
    activity: built.activity.service,
    monitoring: built.monitoring.service,
    github: built.github.service,
    scheduler: built.scheduler.service,
    mosques: built.mosques.service,
    prayerTimes: built.prayerTimes.service,
    recordingConfigs: built.recordingConfigs.service,
    capture,
    instances,
    recordings,
    images: built.images.service,
    alarms: built.alarms.service,
    recordingsLibrary: built.library.service,
    servers: built.servers.service.registry,
  };
}
