import Fastify, { type FastifyServerOptions, type RouteOptions } from 'fastify';
import fastifyWebsocket from '@fastify/websocket';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { LIVE_MAX_FRAME_BYTES } from '../contract/live';
import type { Config } from './config';
import type { AppContext } from './context';
import { openDatabase } from './db';
import { systemClock, type Clock } from './lib/clock';
import type { AppInstance } from './lib/fastify';
import { SecretKeys } from './lib/secret-key';
import { AuthService } from './modules/auth/auth-service';
import { registerAuthRoutes } from './modules/auth/routes';
import { SessionService } from './modules/auth/session-service';
import { SessionsRepository } from './modules/auth/sessions-repository';
import { SessionTokens } from './modules/auth/tokens';
import { LiveHub } from './modules/live/hub';
import { registerLiveRoutes } from './modules/live/routes';
import { UsersRepository } from './modules/users/repository';
import { registerUserRoutes } from './modules/users/routes';
import { UsersService } from './modules/users/service';
import { registerAccessControl } from './plugins/access';
import { registerConsole } from './plugins/console';
import { registerErrorHandling } from './plugins/errors';
import { registerInputGuard } from './plugins/input-guard';
import { MONITORING_POLL_MS } from '../contract/monitoring';
import { SecretBox } from './lib/crypto';
import { ActivityRepository } from './modules/activity/repository';
import { registerActivityRoutes } from './modules/activity/routes';
import { ActivityService } from './modules/activity/service';
import { OctokitGithubApi } from './modules/github/github-api';
import { registerGithubRoutes } from './modules/github/routes';
import { GithubService } from './modules/github/service';
import { SettingsRepository } from './modules/github/settings-repository';
import { registerMonitoringRoutes, registerRequestMetrics } from './modules/monitoring/routes';
import { MonitoringService } from './modules/monitoring/service';
import { createScheduler, registerSchedulerRoutes, type SchedulerOptions } from './modules/scheduler';
import { MapsLinkResolver } from './geo/maps-link';
import { registerConfigRoutes } from './modules/config/routes';
import { RecordingConfigService } from './modules/config/service';
import { MosquesRepository } from './modules/mosques/repository';
import { registerMosqueRoutes } from './modules/mosques/routes';
import { MosquesService } from './modules/mosques/service';
import { registerPrayerTimeRoutes } from './modules/prayer-times/routes';
import { PrayerTimesService } from './modules/prayer-times/service';
import type { CaptureProvider } from './capture/provider';
import { createCaptureModule, registerCaptureModule } from './modules/instances';
import { ALARMS_MAX_LIMIT } from '../contract/alarms';
import { AlarmsRepository } from './modules/alarms/repository';
import { registerAlarmRoutes } from './modules/alarms/routes';
import { AlarmsService } from './modules/alarms/service';
import { registerRecordingsLibrary } from './modules/recordings/library-module';

export interface BuildOptions {
  clock?: Clock;
  logger?: FastifyServerOptions['logger'];
  /** How often health is re-checked and changes pushed to the live feed (default 30 s; 0 = never, tests call refresh()). */
  healthCheckIntervalMs?: number;
  /** How long one component check may take before it counts as unhealthy (default 5 s). */
  healthCheckTimeoutMs?: number;
  /** Scheduler ports to swap (tests, bench): planner, launcher, timer. */
  scheduler?: SchedulerOptions;
  /** A capture driver to use instead of the one CAPTURE_PROVIDER names (tests, bench). */
  captureDriver?: CaptureProvider;
  /** Told of every route as it is registered (the authorization matrix test enumerates them). */
  onRoute?: (route: RouteOptions) => void;
}

export type App = AppInstance & { ctx: AppContext };

/** Log lines never carry credentials, whatever a route or library puts in them. */
const REDACTED_PATHS = ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.token', '*.access_token', '*.github_pat'];

/** The whole server as one Fastify instance, without listening: tests drive it with `inject`. */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<App> {
  const app = Fastify({
    logger: options.logger ?? { level: config.logLevel, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } },
    bodyLimit: 1024 * 1024,
    trustProxy: false,
    forceCloseConnections: true,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  const { onRoute } = options;
  if (onRoute) app.addHook('onRoute', (route) => onRoute(route as unknown as RouteOptions));

  const clock = options.clock ?? systemClock;
  const db = await openDatabase(config);
  app.addHook('onClose', () => db.close());

  const keys = SecretKeys.load(config.secretKey, config.dataDir);
  const sessions = new SessionService(
    new SessionsRepository(db.kysely),
    new SessionTokens(keys.derive('session-tokens'), clock),
    clock,
  );
  const users = new UsersService(new UsersRepository(db.kysely), sessions, clock);
  const auth = new AuthService(users, sessions, clock);
  const hub = new LiveHub(clock);
  const mosques = new MosquesService(new MosquesRepository(db.kysely), clock);
  const prayerTimes = new PrayerTimesService(mosques, clock, app.log);
  const mapsLinks = new MapsLinkResolver({ resolveOrigin: config.mapsLinkResolveOrigin, timeoutMs: config.mapsLinkTimeoutMs });
  const recordingConfigs = new RecordingConfigService(mosques, prayerTimes, mapsLinks, config, app.log);
  const activity = new ActivityService(new ActivityRepository(db.kysely), clock, app.log);
  const monitoring = new MonitoringService({ db: db.kysely, clock, hub, log: app.log, checkTimeoutMs: options.healthCheckTimeoutMs });
  const github = new GithubService({
    settings: new SettingsRepository(db.kysely),
    api: new OctokitGithubApi(config.githubApiUrl, clock),
    box: new SecretBox(keys.derive('settings-encryption')),
    clock,
    activity,
    log: app.log,
  });
  const alarms = new AlarmsService({ repository: new AlarmsRepository(db.kysely), clock, activity, publish: (message) => hub.publish(message), log: app.log });
  hub.addGreeting(async () => ({ type: 'alarms', data: { alarms: await alarms.list('open', ALARMS_MAX_LIMIT) } }));
  const recordingsLibrary = registerRecordingsLibrary(app, { config, db, clock, keys, activity, log: app.log });
  const capture = createCaptureModule({ config, clock, db, hub, log: app.log, driver: options.captureDriver, alarms });
  const scheduler = createScheduler(
    { db, clock, realClock: clock === systemClock, publish: (message) => hub.publish(message), log: app.log, services: () => ctx },
    options.scheduler,
  );
  const ctx: AppContext = { config, clock, db, log: app.log, keys, hub, sessions, users, auth, activity, monitoring, github, scheduler, mosques, prayerTimes, recordingConfigs, capture: capture.capture, instances: capture.instances, recordings: capture.recordings, images: capture.images, alarms, recordingsLibrary };

  registerErrorHandling(app);
  registerInputGuard(app);
  registerAccessControl(app, sessions);
  registerRequestMetrics(app, monitoring);
  app.addHook('onReady', async () => monitoring.start(options.healthCheckIntervalMs ?? MONITORING_POLL_MS));
  app.addHook('preClose', () => monitoring.stop());
  await app.register(fastifyWebsocket, { options: { maxPayload: LIVE_MAX_FRAME_BYTES } });
  app.addHook('preClose', () => hub.closeAll(1001, 'Server shutting down'));

  registerAuthRoutes(app, { auth, users, activity });
  registerUserRoutes(app, users, activity);
  registerMosqueRoutes(app, { mosques, activity });
  registerPrayerTimeRoutes(app, prayerTimes);
  registerConfigRoutes(app, { configs: recordingConfigs, activity });
  registerActivityRoutes(app, activity);
  registerMonitoringRoutes(app, { monitoring, metricsToken: config.metricsToken });
  registerGithubRoutes(app, github);
  registerSchedulerRoutes(app, scheduler);
  registerAlarmRoutes(app, alarms);
  app.addHook('onReady', () => scheduler.boot());
  app.addHook('preClose', () => scheduler.close());
  registerCaptureModule(app, capture, { config, hub, monitoring, activity });
  registerLiveRoutes(app, { hub, sessions, clock, allowedOrigins: config.allowedOrigins });
  await registerConsole(app, config.consoleDir);

  return Object.assign(app, { ctx });
}
