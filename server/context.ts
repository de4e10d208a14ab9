import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { Db } from './db';
import type { Clock } from './lib/clock';
import type { SecretKeys } from './lib/secret-key';
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
import type { InstancesService } from './modules/instances';
import type { RecordingsService, RecordingsLibrary } from './modules/recordings';
import type { ImagesService } from './modules/images';
import type { AlarmsService } from './modules/alarms';
import type { ServerRegistry } from './modules/servers';

/** Everything a module may use, built once per app. Modules reach each other only through services here. */
export interface AppContext {
  config: Config;
  clock: Clock;
  db: Db;
  log: FastifyBaseLogger;
  keys: SecretKeys;
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
  /** Mosques (CRUD, coordinates); `onChange(listener)` tells of every create, update and delete. */
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
